import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorsOf, readStreamUntil, type Server, sendJson, startServer } from './harness.js';

// The specification's confirmed-commit state table with RFC 6241 section 8.4: the default
// confirm-timeout is 300 s, and while a confirmed commit with persist is pending an edit that
// carries its token as persist-id joins it (a follow-up confirmed commit with confirmed, the
// confirming commit without), as does a confirmed edit that carries it as its persist, so several
// edits are confirmed or cancelled as one.
const PLAYER = '/restconf/data/example-jukebox:jukebox/player';
const GAP = `${PLAYER}/gap`;
const PLAYLIST = '/restconf/data/example-jukebox:jukebox/playlist=Grouped';
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

async function gap(): Promise<unknown> {
  return ((await (await s.fetch(GAP)).json()) as Record<string, unknown>)['example-jukebox:gap'];
}

async function playlistStatus(): Promise<number> {
  return (await s.fetch(PLAYLIST)).status;
}

/** A pending confirmed commit of two edits: the gap, then a new playlist joined with persist-id. */
async function twoEditsUnder(token: string): Promise<void> {
  expect((await s.fetch(GAP, sendJson('PUT', { 'example-jukebox:gap': '0.5' }))).status).toBe(204);
  const first = await s.fetch(
    `${GAP}?confirmed=1&persist=${token}`,
    sendJson('PUT', { 'example-jukebox:gap': '1.5' }),
  );
  expect(first.status).toBe(204);
  const second = await s.fetch(
    `${PLAYLIST}?confirmed=1&persist=${token}&persist-id=${token}`,
    sendJson('PUT', { 'example-jukebox:playlist': [{ name: 'Grouped' }] }),
  );
  expect(second.status).toBe(201);
  expect(await gap()).toBe('1.5');
  expect(await playlistStatus()).toBe(200);
}

function withPersistId(persistId: string): RequestInit {
  return sendJson('POST', { 'ietf-netconf:input': { 'persist-id': persistId } });
}

describe('confirmed commit', () => {
  test('two edits grouped under one confirmed commit are both rolled back by cancel-commit', async () => {
    await twoEditsUnder('group-cancel');
    const cancel = await s.fetch(
      '/restconf/operations/ietf-netconf:cancel-commit',
      withPersistId('group-cancel'),
    );
    expect(cancel.status).toBe(204);
    expect(await gap()).toBe('0.5');
    expect(await playlistStatus()).toBe(404);
  });

  test('two edits grouped under one confirmed commit are both kept by commit with persist-id', async () => {
    await twoEditsUnder('group-keep');
    const confirm = await s.fetch('/restconf/operations/ietf-netconf:commit', withPersistId('group-keep'));
    expect(confirm.status).toBe(204);
    expect(await gap()).toBe('1.5');
    expect(await playlistStatus()).toBe(200);
    // Nothing is pending any more: a plain edit goes through.
    expect((await s.fetch(PLAYLIST, { method: 'DELETE' })).status).toBe(204);
  });

  test('an edit that carries the pending persist token with confirmed joins it too, and is rolled back with it', async () => {
    expect((await s.fetch(GAP, sendJson('PUT', { 'example-jukebox:gap': '0.5' }))).status).toBe(204);
    for (const [url, body, status] of [
      [GAP, { 'example-jukebox:gap': '1.4' }, 204],
      [PLAYLIST, { 'example-jukebox:playlist': [{ name: 'Grouped' }] }, 201],
    ] as const) {
      const r = await s.fetch(`${url}?confirmed=1&persist=same-token`, sendJson('PUT', body));
      expect(r.status).toBe(status);
    }
    const cancel = await s.fetch(
      '/restconf/operations/ietf-netconf:cancel-commit',
      withPersistId('same-token'),
    );
    expect(cancel.status).toBe(204);
    expect(await gap()).toBe('0.5');
    expect(await playlistStatus()).toBe(404);
  });

  test('an edit with persist-id and no confirmed is the confirming commit: both edits are kept', async () => {
    const first = await s.fetch(
      `${GAP}?confirmed=1&persist=confirm-by-edit`,
      sendJson('PUT', { 'example-jukebox:gap': '1.2' }),
    );
    expect(first.status).toBe(204);
    const second = await s.fetch(
      `${PLAYLIST}?persist-id=confirm-by-edit`,
      sendJson('PUT', { 'example-jukebox:playlist': [{ name: 'Grouped' }] }),
    );
    expect(second.status).toBe(201);
    // Nothing is pending any more: an edit without persist-id goes through, and both edits stay.
    expect((await s.fetch(GAP, sendJson('PATCH', { 'example-jukebox:gap': '1.2' }))).status).toBe(204);
    expect(await playlistStatus()).toBe(200);
    expect((await s.fetch(PLAYLIST, { method: 'DELETE' })).status).toBe(204);
  });

  test('an edit without persist-id while one is pending is 400 naming persist-id, and changes nothing', async () => {
    const first = await s.fetch(
      `${GAP}?confirmed=1&persist=pending-token`,
      sendJson('PUT', { 'example-jukebox:gap': '1.7' }),
    );
    expect(first.status).toBe(204);
    const r = await s.fetch(PLAYLIST, {
      ...sendJson('PUT', { 'example-jukebox:playlist': [{ name: 'Grouped' }] }),
    });
    expect(r.status).toBe(400);
    const [error] = await errorsOf(r);
    expect(error?.['error-tag']).toBe('invalid-value');
    expect(String(error?.['error-message'])).toContain('persist-id');
    expect(await playlistStatus()).toBe(404);
    const wrong = await s.fetch(
      `${PLAYLIST}?confirmed=1&persist=other&persist-id=other`,
      sendJson('PUT', { 'example-jukebox:playlist': [{ name: 'Grouped' }] }),
    );
    expect(wrong.status).toBe(400);
    expect(await playlistStatus()).toBe(404);
    const cancel = await s.fetch(
      '/restconf/operations/ietf-netconf:cancel-commit',
      withPersistId('pending-token'),
    );
    expect(cancel.status).toBe(204);
  });

  test('without confirm-timeout the NETCONF server is asked for 300 seconds', async () => {
    const edit = async () => {
      const r = await s.fetch(
        `${GAP}?confirmed=1&persist=default-timeout`,
        sendJson('PUT', { 'example-jukebox:gap': '1.9' }),
      );
      expect(r.status).toBe(204);
    };
    const text = await readStreamUntil(s, '/restconf/streams/json-NETCONF', edit, 'netconf-confirmed-commit');
    // RFC 6470 netconf-confirmed-commit: the event that started it carries its timeout.
    expect(text).toMatch(/"confirm-event":\s*"start"[\s\S]*"timeout":\s*300\b/);
    const cancel = await s.fetch(
      '/restconf/operations/ietf-netconf:cancel-commit',
      withPersistId('default-timeout'),
    );
    expect(cancel.status).toBe(204);
  });
});
