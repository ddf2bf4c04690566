import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Gateway, startGateway } from '@yangkit/restconf-gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCli } from '../src/cli-run.js';
import { RestconfClient, type RestconfNotification, RestconfResponseError } from '../src/index.js';

// The real app: restconf-gateway with its embedded NETCONF server and the RFC 8040 examples.
let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ port: 0, logLevel: 'silent' });
});
afterAll(() => gateway?.close());

const LIBRARY = '/example-jukebox:jukebox/library';
const PLAYLIST = '/example-jukebox:jukebox/playlist=Foo-One';
const ROPE =
  "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Rope']";

describe.each(['json', 'xml'] as const)('against restconf-gateway in %s', (encoding) => {
  const client = () => new RestconfClient({ baseUrl: gateway.url, encoding });
  const artist = (name: string) =>
    encoding === 'json'
      ? { 'example-jukebox:artist': [{ name }] }
      : `<artist xmlns="http://example.com/ns/example-jukebox"><name>${name}</name></artist>`;

  test('discovers the root and reads the library', async () => {
    const c = client();
    expect(await c.root()).toBe(gateway.root);
    const response = await c.get(`${LIBRARY}/artist=Foo%20Fighters`, { depth: 2 });
    expect(response.status).toBe(200);
    expect(response.text).toContain('Foo Fighters');
  });

  test('creates, replaces, merges and deletes an entry', async () => {
    const c = client();
    const name = `Band ${encoding}`;
    const path = `${LIBRARY}/artist=Band%20${encoding}`;
    expect((await c.create(LIBRARY, artist(name))).status).toBe(201);
    await c.replace(path, artist(name));
    await c.merge(path, artist(name));
    expect((await c.delete(path)).status).toBe(204);
    expect((await c.remove(path)).status).toBe(404);
  });

  test('raises the server errors entries on a duplicate create', async () => {
    const error = await client()
      .create(LIBRARY, artist('Foo Fighters'))
      .catch((e: unknown) => e);
    expect(RestconfResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, errorTag: 'data-exists' });
  });
});

describe('against restconf-gateway', () => {
  const client = () => new RestconfClient({ baseUrl: gateway.url });

  test('honours a conditional GET with the entity-tag it got', async () => {
    const c = client();
    const first = await c.get(LIBRARY);
    expect(first.etag).toBeDefined();
    const second = await c.get(LIBRARY, { ifNoneMatch: first.etag as string });
    expect(second.status).toBe(304);
  });

  test('reads the yang-library-version and a schema', async () => {
    const c = client();
    expect(await c.yangLibraryVersion()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await c.schema('example-jukebox')).toContain('module example-jukebox');
  });

  test.each(['json', 'xml'] as const)(
    'receives a configuration change on the NETCONF stream in %s',
    async (encoding) => {
      const c = new RestconfClient({ baseUrl: gateway.url, encoding });
      expect((await c.streams()).map((s) => s.name)).toContain('NETCONF');
      const controller = new AbortController();
      const received: RestconfNotification[] = [];
      const reading = (async () => {
        for await (const n of c.subscribe('NETCONF', { signal: controller.signal })) {
          received.push(n);
          if (/netconf-config-change/.test(n.event)) break;
        }
      })().catch((error: unknown) => error);
      // Edit until the stream has delivered the change: the stream opens asynchronously.
      for (let i = 0; i < 50 && !received.some((n) => /netconf-config-change/.test(n.event)); i++) {
        await client().remove(`${LIBRARY}/artist=Stream%20Band`);
        await client().create(LIBRARY, { 'example-jukebox:artist': [{ name: 'Stream Band' }] });
        await new Promise((r) => setTimeout(r, 100));
      }
      controller.abort();
      expect(await reading).toBeUndefined();
      const change = received.find((n) => /netconf-config-change/.test(n.event));
      expect(change?.eventTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      // JSON: the decoded event; XML: the notification document, whose edit target names the jukebox.
      expect(JSON.stringify(change?.data)).toContain('jukebox');
    },
  );
});

describe('operations, YANG Patch and confirmed commits against restconf-gateway', () => {
  const client = () => new RestconfClient({ baseUrl: gateway.url });

  test('applies a YANG Patch and returns ok in the yang-patch-status', async () => {
    const response = await client().yangPatch(LIBRARY, {
      'ietf-yang-patch:yang-patch': {
        'patch-id': 'add-and-drop',
        edit: [
          {
            'edit-id': '1',
            operation: 'create',
            target: '/artist=Patched',
            value: { 'example-jukebox:artist': [{ name: 'Patched' }] },
          },
          { 'edit-id': '2', operation: 'delete', target: '/artist=Patched' },
        ],
      },
    });
    expect(response.data).toEqual({
      'ietf-yang-patch:yang-patch-status': { 'patch-id': 'add-and-drop', ok: [null] },
    });
  });

  test('raises the errors of a failing YANG Patch edit', async () => {
    const error = await client()
      .yangPatch(LIBRARY, {
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'dup',
          edit: [
            {
              'edit-id': '1',
              operation: 'create',
              target: '/artist=Miles%20Davis',
              value: { 'example-jukebox:artist': [{ name: 'Miles Davis' }] },
            },
          ],
        },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409 });
  });

  test('invokes an action on a list entry', async () => {
    const c = client();
    await c.replace('/example-actions:interfaces/interface=eth0', {
      'example-actions:interface': [{ name: 'eth0' }],
    });
    const reset = await c.invokeAction('/example-actions:interfaces/interface=eth0/reset', { delay: 0 });
    expect([200, 204]).toContain(reset.status);
    const time = await c.invokeAction('/example-actions:interfaces/interface=eth0/get-last-reset-time');
    expect(JSON.stringify(time.data)).toMatch(/last-reset/);
  });

  test('keeps a confirmed edit after commit with its persist-id', async () => {
    const c = client();
    const path = `${LIBRARY}/artist=Confirmed`;
    await c.replace(
      path,
      { 'example-jukebox:artist': [{ name: 'Confirmed' }] },
      { confirmed: true, confirmTimeout: 60, persist: 'keep-1' },
    );
    await c.commit('keep-1');
    expect((await c.get(path)).status).toBe(200);
  });

  test('rolls a confirmed edit back with cancel-commit', async () => {
    const c = client();
    const path = `${LIBRARY}/artist=Cancelled`;
    await c.replace(
      path,
      { 'example-jukebox:artist': [{ name: 'Cancelled' }] },
      { confirmed: true, persist: 'drop-1' },
    );
    expect((await c.get(path)).status).toBe(200);
    await c.cancelCommit('drop-1');
    await expect(c.get(path)).rejects.toMatchObject({ status: 404 });
  });

  test('reads the YANG library', async () => {
    const { data } = await client().yangLibrary();
    expect(JSON.stringify(data)).toContain('example-jukebox');
  });
});

describe('yangkit against restconf-gateway', () => {
  async function yangkit(...args: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['--server', gateway.url, ...args], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    return { code, stdout, stderr };
  }

  test('sget prints the entry as indented JSON', async () => {
    const { code, stdout } = await yangkit('sget', `${LIBRARY}/artist=Miles%20Davis/name`);
    expect(code).toBe(0);
    expect(stdout).toBe('{\n  "example-jukebox:name": "Miles Davis"\n}\n');
  });

  test('create of an existing entry exits 1 and prints data-exists', async () => {
    const { code, stderr } = await yangkit(
      'create',
      `${LIBRARY}/artist=Miles%20Davis`,
      '{"example-jukebox:artist":[{"name":"Miles Davis"}]}',
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: HTTP 409\n {2}\w+ data-exists/);
  });

  test('create and insert --operation create both take the path of the new entry', async () => {
    const created = await yangkit(
      'create',
      `${LIBRARY}/artist=Created`,
      '{"example-jukebox:artist":[{"name":"Created"}]}',
    );
    const song = `${PLAYLIST}/song=7`;
    const inserted = await yangkit(
      'insert',
      song,
      JSON.stringify({ 'example-jukebox:song': [{ index: 7, id: ROPE }] }),
      '--operation',
      'create',
      '--insert',
      'first',
    );
    expect([created.code, inserted.code]).toEqual([0, 0]);
    expect((await yangkit('sget', `${LIBRARY}/artist=Created/name`)).stdout).toContain('"Created"');
    const songs = JSON.parse((await yangkit('sget', `${PLAYLIST}/song`)).stdout)['example-jukebox:song'];
    expect(songs[0].index).toBe(7);
  });

  test('get-config invokes ietf-netconf:get-config and prints the configuration below the path', async () => {
    const { code, stdout } = await yangkit('get-config', '/example-jukebox:jukebox/playlist');
    expect(code).toBe(0);
    const data = JSON.parse(stdout)['ietf-netconf:output'].data;
    expect(Object.keys(data['example-jukebox:jukebox'])).toEqual(['playlist']);
    expect(JSON.stringify(data)).toContain('Foo-One');
  });

  test('get-config --encoding xml prints the XML output', async () => {
    const { code, stdout } = await yangkit(
      '--encoding',
      'xml',
      'get-config',
      '/example-jukebox:jukebox/playlist',
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/^<output xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><data><jukebox /);
  });

  test('remove of an absent entry prints nothing and exits 0', async () => {
    expect(await yangkit('remove', `${LIBRARY}/artist=Never%20There`)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
  });

  test('a failed YANG Patch prints the error block with the edit', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'yangkit-patch-')), 'patch.json');
    writeFileSync(
      file,
      JSON.stringify({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'dup',
          edit: [
            {
              'edit-id': 'add-miles',
              operation: 'create',
              target: '/artist=Miles%20Davis',
              value: { 'example-jukebox:artist': [{ name: 'Miles Davis' }] },
            },
          ],
        },
      }),
    );
    const { code, stderr } = await yangkit('patch', file, '--path', LIBRARY);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^error: HTTP 409\n {2}application data-exists\n {4}edit: add-miles\n {4}path: \/example-jukebox:jukebox\/library\/artist\[name='Miles Davis'\]\n {4}message: /,
    );
  });

  test('rpc invokes an operation with input and prints its output', async () => {
    expect((await yangkit('rpc', 'example-ops:reboot', '{"delay":1,"message":"now"}')).code).toBe(0);
    const { code, stdout } = await yangkit('rpc', 'example-ops:get-reboot-info');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toHaveProperty(['example-ops:output']);
  });

  test('schema prints a module source', async () => {
    const { stdout } = await yangkit('schema', 'example-ops');
    expect(stdout).toContain('rpc get-reboot-info');
  });
});
