import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import { checkRequest, gatewayFigures, http1Sender } from './gateway-check.js';
import { type Server, startServer } from './harness.js';
import { request } from './requests.js';

// Issue 12: random and mutated requests over the running app. Every answer must come within the
// deadline, never be 5xx while the embedded backend is healthy, and carry an errors body when 4xx.
// Whether each rejected request left running and candidate as they were is measured and written
// into the figures, each violation listed as a finding.
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);

const figures = gatewayFigures();
/** Rejected requests after which running or candidate differed from before. */
const changes: string[] = [];

let s: Server;
let send: ReturnType<typeof http1Sender>;
beforeAll(async () => {
  s = await startServer();
  send = http1Sender(s);
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

describe('fuzzing the running gateway', () => {
  test('no generated request crashes, hangs, gets a 5xx or is rejected without an errors body', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const finding = await checkRequest(s, send, r, figures);
        if (finding === undefined) return;
        // A finding, not a crash: counted and reported with the request in the figures (see README).
        if (finding.kind === 'datastore-changed') {
          changes.push(`${r.method} ${r.path} (${JSON.stringify(r.headers)}) ${finding.detail}`);
          return;
        }
        throw new Error(`${finding.kind}: ${JSON.stringify(finding.request)} -> ${finding.detail}`);
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
