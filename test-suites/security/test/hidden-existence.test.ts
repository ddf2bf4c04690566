import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Credentials, makeCredentials } from './credentials.js';
import {
  DATA_JSON,
  errorsBody,
  fetchAs,
  JUKEBOX_EDITORS,
  PATCH_JSON,
  PLAYLISTS_HIDDEN,
  type Server,
  startServer,
} from './harness.js';

// RFC 8341 section 3.4.5: data a user may not read is left out of every answer to that user. A
// write answer must not tell either whether such data exists: DELETE (204 or 404), POST (201 or
// 409) and a YANG Patch create (409) would. A user who may not read the target gets 403
// access-denied whether it exists or not, and nothing changes.
const PASSWORDS = { root: 'administrator', alice: 'wonderland', bob: 'builder' };
type User = keyof typeof PASSWORDS;
const PLAYLISTS = '/restconf/data/example-jukebox:jukebox/playlist';

/** alice may edit the jukebox, bob nothing; neither may read the playlists. */
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: {
      group: [
        { name: 'users', 'user-name': ['alice', 'bob'] },
        { name: 'editors', 'user-name': ['alice'] },
      ],
    },
    'rule-list': [PLAYLISTS_HIDDEN, JUKEBOX_EDITORS],
  },
};

let creds: Credentials;
let s: Server;

const as = fetchAs(() => s, PASSWORDS);

/** The status and the first error-tag of an answer: what tells one case from the other. */
async function outcome(r: Response): Promise<{ status: number; tag: string | undefined }> {
  const text = await r.text();
  const errors = errorsBody(text, r.headers.get('content-type')) as
    | { error: { 'error-tag': string }[] }
    | undefined;
  const patchTag = /"error-tag":\s*"([^"]+)"/.exec(text)?.[1];
  return { status: r.status, tag: errors?.error[0]?.['error-tag'] ?? patchTag };
}

function post(user: User, name: string): Promise<Response> {
  return as(user, '/restconf/data/example-jukebox:jukebox', {
    method: 'POST',
    headers: { 'Content-Type': DATA_JSON },
    body: JSON.stringify({ 'example-jukebox:playlist': [{ name }] }),
  });
}

function patchCreate(user: User, name: string): Promise<Response> {
  return as(user, '/restconf/data/example-jukebox:jukebox', {
    method: 'PATCH',
    headers: { 'Content-Type': PATCH_JSON },
    body: JSON.stringify({
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'p',
        edit: [
          {
            'edit-id': 'e',
            operation: 'create',
            target: `/playlist=${name}`,
            value: { 'example-jukebox:playlist': [{ name }] },
          },
        ],
      },
    }),
  });
}

beforeAll(async () => {
  creds = makeCredentials(PASSWORDS, 1024);
  s = await startServer({ usersFile: creds.usersFile, nacmAdmin: 'root' });
  const rules = await as('root', '/restconf/data/ietf-netconf-acm:nacm', {
    method: 'PUT',
    headers: { 'Content-Type': DATA_JSON },
    body: JSON.stringify(RULES),
  });
  expect(rules.status).toBeLessThan(300);
  const secret = await as('root', `${PLAYLISTS}=secret`, {
    method: 'PUT',
    headers: { 'Content-Type': DATA_JSON },
    body: JSON.stringify({ 'example-jukebox:playlist': [{ name: 'secret', description: 'kept' }] }),
  });
  expect(secret.status).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
  creds.remove();
});

describe.each(['alice', 'bob'] as const)('%s, who may not read the playlists', (user) => {
  test('gets the same 403 access-denied for a DELETE of an existing and of an absent playlist', async () => {
    const existing = await outcome(await as(user, `${PLAYLISTS}=secret`, { method: 'DELETE' }));
    const absent = await outcome(await as(user, `${PLAYLISTS}=nothing`, { method: 'DELETE' }));
    expect(existing).toEqual({ status: 403, tag: 'access-denied' });
    expect(absent).toEqual(existing);
  });

  test('gets the same 403 access-denied for a POST of an existing and of an absent playlist', async () => {
    const existing = await outcome(await post(user, 'secret'));
    const absent = await outcome(await post(user, 'nothing'));
    expect(existing).toEqual({ status: 403, tag: 'access-denied' });
    expect(absent).toEqual(existing);
  });

  test('gets the same answer for a YANG Patch create of an existing and of an absent playlist', async () => {
    const existing = await outcome(await patchCreate(user, 'secret'));
    const absent = await outcome(await patchCreate(user, 'nothing'));
    expect(existing).toEqual({ status: 403, tag: 'access-denied' });
    expect(absent).toEqual(existing);
  });

  test('changes nothing by these requests', async () => {
    const r = await as('root', `${PLAYLISTS}=secret`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain('kept');
    expect((await as('root', `${PLAYLISTS}=nothing`)).status).toBe(404);
  });
});
