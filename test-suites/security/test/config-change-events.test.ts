import { afterAll, beforeAll, expect, test } from 'vitest';
import { basic, type Credentials, makeCredentials } from './credentials.js';
import { DATA_JSON, fetchAs, PLAYLISTS_HIDDEN, type Server, startServer } from './harness.js';

// RFC 8341 section 3.4.5 and RFC 6470: a netconf-config-change names the targets of an edit. A
// subscriber who may not read a subtree must not learn from the NETCONF stream what was edited in it.
const PASSWORDS = { root: 'administrator', alice: 'wonderland' };

/** alice may not read the playlists. */
const RULES = {
  'ietf-netconf-acm:nacm': {
    groups: { group: [{ name: 'users', 'user-name': ['alice'] }] },
    'rule-list': [PLAYLISTS_HIDDEN],
  },
};

let creds: Credentials;
let s: Server;

const as = fetchAs(() => s, PASSWORDS);

function put(path: string, body: unknown): Promise<Response> {
  return as('root', path, {
    method: 'PUT',
    headers: { 'Content-Type': DATA_JSON },
    body: JSON.stringify(body),
  });
}

/** The text of an event stream up to and including the first chunk that contains `marker`. */
async function readUntil(stream: Response, marker: string): Promise<string> {
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = setTimeout(() => void reader.cancel(), 15_000);
  try {
    while (!text.includes(marker)) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

beforeAll(async () => {
  creds = makeCredentials(PASSWORDS, 1024);
  s = await startServer({ usersFile: creds.usersFile, nacmAdmin: 'root' });
  expect((await put('/restconf/data/ietf-netconf-acm:nacm', RULES)).status).toBeLessThan(300);
});
afterAll(async () => {
  await s?.close();
  creds.remove();
});

test('a subscriber who may not read the playlists sees no config-change event naming one', async () => {
  const stream = await fetch(`${s.gateway.url}/restconf/streams/json-NETCONF`, {
    headers: { Accept: 'text/event-stream', Authorization: basic('alice', PASSWORDS.alice) },
  });
  expect(stream.status).toBe(200);
  const playlist = await put('/restconf/data/example-jukebox:jukebox/playlist=secret', {
    'example-jukebox:playlist': [{ name: 'secret', description: 'hidden' }],
  });
  expect(playlist.status).toBeLessThan(300);
  const artist = await put('/restconf/data/example-jukebox:jukebox/library/artist=Public%20Artist', {
    'example-jukebox:artist': [{ name: 'Public Artist' }],
  });
  expect(artist.status).toBeLessThan(300);
  const text = await readUntil(stream, 'Public Artist');
  expect(text).toContain('netconf-config-change');
  expect(text).toContain('Public Artist');
  expect(text).not.toContain('playlist');
});
