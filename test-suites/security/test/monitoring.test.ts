import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials } from './credentials.js';
import { DATA_JSON, errorsBody, type Server, startServer } from './harness.js';

// /metrics and /server-status tell how the server is used and how it resists attacks: with
// authentication only the administrator (--nacm-admin or --http-user), or the users
// --monitoring-user names, may read them.
const PASSWORDS = { root: 'administrator', alice: 'wonderland' };
let creds: Credentials;

beforeAll(() => {
  creds = makeCredentials(PASSWORDS, 1024);
});
afterAll(() => creds.remove());

/** GET of `path` as `user`. */
async function read(s: Server, path: string, user: keyof typeof PASSWORDS): Promise<Response> {
  return s.fetch(path, { headers: { Accept: DATA_JSON, Authorization: basic(user, PASSWORDS[user]) } });
}

describe('monitoring pages by default', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({
      usersFile: creds.usersFile,
      nacmAdmin: 'root',
      metrics: true,
      serverStatus: true,
    });
  });
  afterAll(() => s.close());

  for (const path of ['/metrics', '/server-status']) {
    test(`${path} answers 403 access-denied to a user who is not the administrator`, async () => {
      const r = await read(s, path, 'alice');
      expect(r.status).toBe(403);
      const errors = errorsBody(await r.text(), r.headers.get('content-type')) as {
        error: { 'error-tag': string }[];
      };
      expect(errors.error[0]?.['error-tag']).toBe('access-denied');
    });

    test(`${path} answers the --nacm-admin user`, async () => {
      expect((await read(s, path, 'root')).status).toBe(200);
    });
  }

  test('the other resources still answer the user who may not read the monitoring pages', async () => {
    expect((await read(s, '/restconf/data/example-jukebox:jukebox/player', 'alice')).status).toBe(200);
  });
});

describe('--monitoring-user', () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({
      usersFile: creds.usersFile,
      nacmAdmin: 'root',
      metrics: true,
      monitoringUser: ['alice'],
    });
  });
  afterAll(() => s.close());

  test('lets the users it names read /metrics, and only them', async () => {
    expect((await read(s, '/metrics', 'alice')).status).toBe(200);
    expect((await read(s, '/metrics', 'root')).status).toBe(403);
  });
});
