import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials, metricValue } from './credentials.js';
import { updateFigures, writeFigures } from './figures.js';
import { DATA_JSON, JUKEBOX_EDITORS, playlists } from './harness.js';
import { type GatewayProcess, spawnGateway } from './process.js';

// The resident memory of a gateway process before an attack of big bodies and half-open HTTP/2
// streams, right after it, and 30 s later, without forcing a garbage collection: what the gateway
// keeps once an attack ends. A figure, not a pass/fail bound (the garbage collector decides when
// memory goes back), so it runs with UPDATE_FIGURES=1 only.
const PASSWORDS = { root: 'administrator', alice: 'wonderland', bob: 'builder' };
const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: { group: [{ name: 'editors', 'user-name': ['alice'] }] },
    'rule-list': [JUKEBOX_EDITORS],
  },
};
const SETTLE_MS = 30_000;

/** The resident set size of process `pid` in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

describe.runIf(updateFigures && existsSync('/proc/self/status'))('memory after an attack', () => {
  let creds: Credentials;
  let g: GatewayProcess;

  /**
   * One request on a session of its own; resolves with its status once the stream closes (an edit
   * refused before its body is read is answered, then its stream reset).
   */
  const exchange = (user: keyof typeof PASSWORDS, method: string, path: string, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const session = connect(g.url, { ca: creds.ca });
      session.once('error', reject);
      const stream = session.request({
        ':method': method,
        ':path': path,
        authorization: basic(user, PASSWORDS[user]),
        'content-type': DATA_JSON,
      });
      let status = 0;
      stream.on('response', (h) => {
        status = h[':status'] ?? 0;
      });
      let text = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        text += chunk;
      });
      stream.on('error', () => undefined);
      stream.once('close', () => {
        session.destroy();
        resolve({ status, text });
      });
      stream.end(body);
    });
  const request = async (user: keyof typeof PASSWORDS, method: string, path: string, body?: string) =>
    (await exchange(user, method, path, body)).status;
  /** The gateway's resident memory and V8 heap in use, in MB. */
  const memory = async () => {
    const metrics = (await exchange('root', 'GET', '/metrics')).text;
    const heap = Math.round(metricValue(metrics, 'nodejs_heap_size_used_bytes') / 2 ** 20);
    return `${rssMb(g.child.pid!)} MB (heap in use ${heap} MB)`;
  };

  /** `count` PUT streams without credentials that never end their request, on a session of their own. */
  const halfOpenBurst = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const session = connect(g.url, { ca: creds.ca });
      session.once('error', reject);
      let ended = 0;
      for (let i = 0; i < count; i++) {
        const stream = session.request({ ':method': 'PUT', ':path': JUKEBOX }, { endStream: false });
        stream.on('error', () => undefined);
        stream.resume();
        stream.once('close', () => {
          if (++ended === count) {
            session.destroy();
            resolve();
          }
        });
      }
    });

  beforeAll(async () => {
    creds = makeCredentials(PASSWORDS, 1024);
    g = await spawnGateway([
      `--users-file=${creds.usersFile}`,
      '--nacm-admin=root',
      `--tls-cert=${creds.tlsCert}`,
      `--tls-key=${creds.tlsKey}`,
      '--metrics',
      '--log-level=info',
    ]);
    expect(await request('root', 'PUT', '/restconf/data/ietf-netconf-acm:nacm', JSON.stringify(RULES))).toBe(
      201,
    );
  }, 60_000);
  afterAll(async () => {
    g?.child.kill('SIGTERM');
    await g?.exited;
    creds?.remove();
  });

  test('is measured before, right after and 30 s after big bodies and half-open HTTP/2 streams', async () => {
    const before = await memory();
    const denied = playlists(700_000);
    const statuses = await Promise.all([
      request('bob', 'PATCH', JUKEBOX, denied),
      request('bob', 'PATCH', JUKEBOX, denied),
      request('bob', 'PATCH', JUKEBOX, denied),
    ]);
    statuses.push(await request('alice', 'PATCH', JUKEBOX, playlists(100_001)));
    const accepted = playlists(99_999);
    statuses.push(await request('alice', 'PATCH', JUKEBOX, accepted));
    // The same entries again, eight at once: the body admission lets two decode at a time.
    const together = await Promise.all(
      Array.from({ length: 8 }, () => request('alice', 'PATCH', JUKEBOX, accepted)),
    );
    await Promise.all(Array.from({ length: 20 }, () => halfOpenBurst(100)));
    // The refused bodies: 403, or a reset when the 403 came before the client finished sending.
    expect(statuses.map((x) => (x === 0 ? 403 : x))).toEqual([403, 403, 403, 413, 204]);
    expect(together).toEqual(Array(8).fill(204));
    const after = await memory();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settled = await memory();
    writeFigures(
      'memory',
      [
        '### Gateway memory after an attack',
        '',
        'Resident memory of the gateway process (its own process: embedded backend, users file, NACM, HTTPS with HTTP/2), read from `/proc`, no garbage collection forced. The attack: three 13.2 MB PATCHes of 700,000 playlists at once by a user who may write nothing there (403), a PATCH of 200,003 data nodes (413 as its decode passes the limit), an accepted PATCH of 99,999 playlists (204: they stay in the datastore), the same PATCH eight times at once (204; two decoded at a time, the others waiting unread), then 20 HTTP/2 sessions of 100 PUT streams without credentials that never end their request (each answered 401 and reset).',
        '',
        '| before | right after | 30 s after |',
        '| ---: | ---: | ---: |',
        `| ${before} | ${after} | ${settled} |`,
      ].join('\n'),
    );
  }, 180_000);
});
