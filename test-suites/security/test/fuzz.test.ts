import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { errorsBody, type Server, startServer } from './harness.js';
import { type FuzzRequest, request } from './requests.js';

// Issue 12: random and mutated requests over the running app. Every answer must come within the
// deadline, never be 5xx while the embedded backend is healthy, and carry an errors body when 4xx.
// Whether each rejected request left running and candidate as they were is measured and written
// into the figures, each violation listed as a finding.
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const figures = {
  tried: 0,
  unsendable: 0,
  accepted: 0,
  rejected: 0,
  serverErrors: 0,
  changedByRejected: 0,
  slowestMs: 0,
};
const failures: string[] = [];
/** Rejected requests after which running or candidate differed from before. */
const changes: string[] = [];

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
  if (updateFigures) {
    writeFigures(
      'fuzz',
      [
        `### Fuzzing the running gateway (${RUNS} runs per property)`,
        '',
        '| inputs tried | not sendable by fetch | accepted (2xx/3xx) | rejected (4xx) | 5xx | datastore changed by a rejected request | slowest answer |',
        '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        `| ${figures.tried} | ${figures.unsendable} | ${figures.accepted} | ${figures.rejected} | ${figures.serverErrors} | ${figures.changedByRejected} | ${figures.slowestMs} ms |`,
        '',
        ...(changes.length === 0
          ? ['No rejected request changed running or candidate.']
          : [
              'Finding: rejected requests after which running or candidate differed from before (the first five):',
              '',
              ...changes.slice(0, 5).map((c) => `- ${c}`),
            ]),
      ].join('\n'),
    );
  }
});

/** Sends one request and checks the properties of issue 12; returns false with a reason in `failures`. */
async function check(r: FuzzRequest): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(r.path, s.gateway.url);
  } catch {
    figures.unsendable++;
    return true;
  }
  figures.tried++;
  const before = await s.snapshot();
  const started = performance.now();
  let res: Response;
  try {
    res = await s.fetch(url.pathname + url.search, {
      method: r.method,
      headers: r.headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    });
  } catch (error) {
    failures.push(`${r.method} ${r.path}: no answer (${(error as Error).message})`);
    return false;
  }
  const type = res.headers.get('content-type');
  // An event stream stays open by design; its first bytes are enough.
  let text = '';
  if (type?.startsWith('text/event-stream') === true) await res.body?.cancel();
  else text = await res.text();
  figures.slowestMs = Math.max(figures.slowestMs, Math.round(performance.now() - started));
  if (res.status >= 500) {
    figures.serverErrors++;
    failures.push(
      `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body ?? ''} -> ${res.status} ${text}`,
    );
    return false;
  }
  if (res.status < 400) {
    figures.accepted++;
    return true;
  }
  figures.rejected++;
  const after = await s.snapshot();
  if (after !== before) {
    // A finding, not a crash: counted and reported with the request in the figures (see README).
    figures.changedByRejected++;
    changes.push(`${r.method} ${r.path} (${JSON.stringify(r.headers)}) answered ${res.status}`);
  }
  if (
    r.method !== 'HEAD' &&
    res.status !== 405 &&
    res.status !== 406 &&
    errorsBody(text, type) === undefined
  ) {
    failures.push(`${r.method} ${r.path} -> ${res.status} without an ietf-restconf:errors body: ${text}`);
    return false;
  }
  return true;
}

describe('fuzzing the running gateway', () => {
  test('no generated request crashes, hangs, gets a 5xx or is rejected without an errors body', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const ok = await check(r);
        if (!ok) throw new Error(failures.at(-1));
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    expect(figures.serverErrors).toBe(0);
  });

  test('the gateway still answers a plain read after the fuzzing', async () => {
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox', {
      headers: { Accept: 'application/yang-data+json' },
    });
    expect([200, 404]).toContain(r.status);
  });
});
