import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectStream } from '@yangkit/netconf-client';
import { duplexPair, type LocalSession, NetconfServer } from '@yangkit/netconf-server';
import { parseApiPath, resolveApiPath } from '@yangkit/restconf-uri';
import type { NodeFilter } from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Backend, ReadRequest, SharedRead } from '../src/backend.js';
import { createRestconfHandler } from '../src/handler.js';
import { toPathSteps } from '../src/instances.js';
import { createNetconfBackend } from '../src/netconf-backend/index.js';
import { exampleSchema, type Gateway, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  const artist = Array.from({ length: 25 }, (_, i) => ({ name: `a${String(i).padStart(2, '0')}` }));
  await gw.fetch('/restconf/data', json('PUT', { 'example-jukebox:jukebox': { library: { artist } } }));
});
afterAll(() => gw.close());

const OP = '/restconf/operations/yangkit-get-bulk:get-bulk';
const TARGET = '/example-jukebox:jukebox/library/artist';

interface Page {
  'yangkit-get-bulk:output': {
    bulk: { data: { 'example-jukebox:artist'?: { name: string }[] }; 'last-keys'?: Record<string, string> };
  };
}

async function page(input: Record<string, unknown>): Promise<Page> {
  const r = await gw.fetch(OP, json('POST', { 'yangkit-get-bulk:input': input }));
  expect(r.status).toBe(200);
  return (await r.json()) as Page;
}

describe('get-bulk', () => {
  test('the first page answers count entries and the keys of the last one', async () => {
    const p = await page({ 'list-target': TARGET, count: 10 });
    const bulk = p['yangkit-get-bulk:output'].bulk;
    expect(bulk.data['example-jukebox:artist']!.map((a) => a.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `a${String(i).padStart(2, '0')}`),
    );
    expect(bulk['last-keys']).toEqual({ 'example-jukebox:name': 'a09' });
  });

  test('paging with last-keys walks the whole list once', async () => {
    const seen: string[] = [];
    let last: Record<string, string> | undefined;
    for (let i = 0; i < 10; i++) {
      const p = await page({ 'list-target': TARGET, count: 10, ...(last ? { 'last-keys': last } : {}) });
      const bulk = p['yangkit-get-bulk:output'].bulk;
      const names = bulk.data['example-jukebox:artist']?.map((a) => a.name) ?? [];
      seen.push(...names);
      if (bulk['last-keys'] === undefined) break;
      last = bulk['last-keys'];
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  test('the page after the last entry is empty', async () => {
    const p = await page({ 'list-target': TARGET, 'last-keys': { 'example-jukebox:name': 'a24' } });
    expect(p['yangkit-get-bulk:output'].bulk).toEqual({ data: {} });
  });

  test('a list-target that is not a list is 400', async () => {
    const r = await gw.fetch(
      OP,
      json('POST', { 'yangkit-get-bulk:input': { 'list-target': '/example-jukebox:jukebox/library' } }),
    );
    expect(r.status).toBe(400);
  });

  test('the XML form carries last-keys in the list namespace', async () => {
    const r = await gw.fetch(OP, {
      method: 'POST',
      headers: { 'content-type': 'application/yang-data+xml' },
      body: `<input xmlns="urn:yangkit:params:xml:ns:yang:yangkit-get-bulk"><list-target>${TARGET}</list-target><count>2</count></input>`,
    });
    const text = await r.text();
    expect(text).toContain(
      '<last-keys><name xmlns="http://example.com/ns/example-jukebox">a01</name></last-keys>',
    );
    expect(text).toContain(
      '<data xmlns:ya="urn:yangkit:params:xml:ns:yangkit-attrs" ya:datapath="/example-jukebox:jukebox/library">',
    );
  });
});

/** Artists of the big jukebox: `a00000` to `a49999`; `a00001` and `a49999` have an album. */
const ARTISTS = 50_000;
const artistName = (i: number) => `a${String(i).padStart(5, '0')}`;

/**
 * dave may read neither the artist `a00002` nor any album; fay only the artist `a49999` (a rule
 * names it by key), and so may gus, whose reads come with a filter that cannot name the entries it
 * tells apart (so each entry is judged); erin is in no group and reads everything.
 */
const READ_RULES = `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm">
  <groups>
    <group><name>listeners</name><user-name>dave</user-name></group>
    <group><name>few</name><user-name>fay</user-name><user-name>gus</user-name></group>
  </groups>
  <rule-list><name>listeners</name><group>listeners</group>
    <rule><name>hide-a00002</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/library/artist[name='a00002']</path>
      <access-operations>read</access-operations><action>deny</action></rule>
    <rule><name>hide-albums</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/library/artist/album</path>
      <access-operations>read</access-operations><action>deny</action></rule>
  </rule-list>
  <rule-list><name>few</name><group>few</group>
    <rule><name>show-a49999</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/library/artist[name='a49999']</path>
      <access-operations>read</access-operations><action>permit</action></rule>
    <rule><name>hide-artists</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/library/artist</path>
      <access-operations>read</access-operations><action>deny</action></rule>
  </rule-list>
</nacm>`;

/** `filter` without `namedEntries`: every entry of a list is judged (as for a filter that cannot say). */
function unnamed({ root, child, keepsAllBelow }: NodeFilter): NodeFilter {
  return { root, child, keepsAllBelow };
}

/** A handler over `backend` on 127.0.0.1 (users from Basic credentials). */
async function serve(backend: Backend): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createRestconfHandler({ schema: await exampleSchema(), backend, trustBasicUser: true });
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await handler.ready;
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await handler.close();
    },
  };
}

describe('get-bulk over a backend that shares its nodes', () => {
  let netconf: NetconfServer;
  /** The gateway whose backend reads through `readShared`, and one whose backend copies (`read` alone). */
  let shared: Awaited<ReturnType<typeof serve>>;
  let copied: Awaited<ReturnType<typeof serve>>;
  const calls = { read: 0, held: 0, released: 0 };
  /**
   * Called as the handler sets what a shared read does when the datastore is about to change: `nth`
   * counts the settings of one read (the first: while a scan judges entries; then: while the answer is written).
   */
  const onDetachSet: { hook?: ((nth: number) => void) | undefined; detached: number[] } = { detached: [] };

  beforeAll(async () => {
    const schema = await exampleSchema();
    netconf = await NetconfServer.create({ schema, nacm: true });
    const [a, b] = duplexPair();
    netconf.connect(a, { username: 'system' }, { recovery: true });
    const root = await connectStream(b);
    const artists = Array.from({ length: ARTISTS }, (_, i) =>
      i === 1 || i === ARTISTS - 1
        ? `<artist><name>${artistName(i)}</name><album><name>x</name><year>2000</year></album></artist>`
        : `<artist><name>${artistName(i)}</name></artist>`,
    ).join('');
    await root.editConfig({
      target: 'running',
      config: `${READ_RULES}<jukebox xmlns="http://example.com/ns/example-jukebox"><library>${artists}</library></jukebox>`,
    });
    await root.close();
    const operations = createNetconfBackend({
      schema,
      openSession: async () => {
        const [c, d] = duplexPair();
        netconf.connect(c, { username: 'restconf' });
        return connectStream(d);
      },
    });
    const sessions = new Map<string, LocalSession>();
    const local = (user: string | undefined) => {
      const name = user ?? 'nobody';
      let session = sessions.get(name);
      if (session === undefined) sessions.set(name, (session = netconf.localSession(name)));
      return session;
    };
    shared = await serve(
      Object.assign(Object.create(operations) as Backend, {
        read: (r: ReadRequest) => {
          calls.read++;
          return local(r.user).read(r);
        },
        readShared: async (r: ReadRequest): Promise<SharedRead> => {
          const read = await local(r.user).readShared(r);
          const filter = r.user === 'gus' && read.filter !== undefined ? unnamed(read.filter) : read.filter;
          calls.held++;
          let settings = 0;
          return {
            ...read,
            ...(filter === undefined ? {} : { filter }),
            onDetach: (detach) => {
              const nth = settings++;
              read.onDetach(() => {
                onDetachSet.detached.push(nth);
                return detach();
              });
              onDetachSet.hook?.(nth);
            },
            release: () => {
              calls.released++;
              read.release();
            },
          };
        },
      }),
    );
    copied = await serve(
      Object.assign(Object.create(operations) as Backend, {
        read: (r: ReadRequest) => local(r.user).read(r),
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await shared?.close();
    await copied?.close();
    await netconf?.close();
  });

  function call(
    url: string,
    user: string,
    input: Record<string, unknown>,
    accept = 'application/yang-data+json',
  ): Promise<Response> {
    return fetch(
      url + OP,
      json(
        'POST',
        { 'yangkit-get-bulk:input': { 'list-target': TARGET, ...input } },
        { Accept: accept, Authorization: `Basic ${Buffer.from(`${user}:x`).toString('base64')}` },
      ),
    );
  }

  async function names(
    user: string,
    input: Record<string, unknown>,
  ): Promise<{ names: string[]; last?: string }> {
    const r = await call(shared.url, user, input);
    expect(r.status).toBe(200);
    const bulk = ((await r.json()) as Page)['yangkit-get-bulk:output'].bulk;
    const last = bulk['last-keys']?.['example-jukebox:name'];
    return {
      names: bulk.data['example-jukebox:artist']?.map((e) => e.name) ?? [],
      ...(last ? { last } : {}),
    };
  }

  const after = (i: number) => ({ 'last-keys': { 'example-jukebox:name': artistName(i) } });

  test('a page after last-keys in a list of 50,000 entries is right at its start, middle and end', async () => {
    expect(await names('erin', { count: 3 })).toEqual({
      names: ['a00000', 'a00001', 'a00002'],
      last: 'a00002',
    });
    expect(await names('erin', { count: 3, ...after(25_000) })).toEqual({
      names: ['a25001', 'a25002', 'a25003'],
      last: 'a25003',
    });
    expect(await names('erin', { count: 5, ...after(49_998) })).toEqual({
      names: ['a49999'],
      last: 'a49999',
    });
    expect(await names('erin', after(49_999))).toEqual({ names: [] });
  });

  test('the backend is read through readShared, never through read, and every hold is released', async () => {
    const before = { ...calls };
    await names('erin', after(10));
    await names('dave', after(10));
    expect((await call(shared.url, 'dave', after(2))).status).toBe(400);
    expect(calls.read).toBe(before.read);
    expect(calls.held - before.held).toBe(3);
    expect(calls.released).toBe(calls.held);
  });

  test('an entry the user may not read is left out of the page and does not count', async () => {
    expect(await names('dave', { count: 3 })).toEqual({
      names: ['a00000', 'a00001', 'a00003'],
      last: 'a00003',
    });
    expect(await names('dave', { count: 1, ...after(1) })).toEqual({ names: ['a00003'], last: 'a00003' });
  });

  test('last-keys naming an entry the user may not read is answered as a key that names no entry', async () => {
    const hidden = await call(shared.url, 'dave', after(2));
    const absent = await call(shared.url, 'dave', { 'last-keys': { 'example-jukebox:name': 'zzz' } });
    expect(hidden.status).toBe(400);
    expect(absent.status).toBe(400);
    expect(await hidden.text()).toBe(await absent.text());
    expect((await call(shared.url, 'erin', after(2))).status).toBe(200);
  });

  test('the entries a rule names by key are found by key, and one other entry is judged for the rest', async () => {
    expect(await names('fay', {})).toEqual({ names: ['a49999'], last: 'a49999' });
    expect(await names('fay', after(49_999))).toEqual({ names: [] });
  });

  test('the answer is byte for byte the one written from a copy, contents filtered, in JSON and XML', async () => {
    const inputs = [{ count: 2, ...after(0) }, after(49_990), {}];
    for (const user of ['dave', 'erin', 'fay', 'gus'])
      for (const accept of ['application/yang-data+json', 'application/yang-data+xml'])
        for (const input of inputs) {
          const expected = await (await call(copied.url, user, input, accept)).text();
          expect(await (await call(shared.url, user, input, accept)).text(), `${user} ${accept}`).toBe(
            expected,
          );
        }
    const page = async (user: string) => (await call(shared.url, user, { count: 2 })).text();
    expect(await page('erin')).toContain('"album"');
    expect(await page('dave')).not.toContain('album');
  });

  test('a filter that cannot name the entries it tells apart has each entry judged, in slices', async () => {
    expect(await names('gus', {})).toEqual({ names: ['a49999'], last: 'a49999' });
    expect(await names('gus', after(49_999))).toEqual({ names: [] });
    expect((await call(shared.url, 'gus', after(0))).status).toBe(400);
  });

  test('a change of the datastore while the scan gives the event loop back leaves the page one snapshot', async () => {
    const album = toPathSteps(
      resolveApiPath(
        parseApiPath(`${TARGET}=${artistName(ARTISTS - 1)}/album=x`),
        pathSchemaOf(await exampleSchema()),
      ),
    );
    const system = netconf.localSession('system', { recovery: true });
    onDetachSet.detached = [];
    // Once the scan for gus has begun, its album is deleted between two of its slices.
    onDetachSet.hook = (nth) => {
      if (nth !== 0) return;
      onDetachSet.hook = undefined;
      setImmediate(() => system.editConfig('running', [{ operation: 'delete', target: album }]));
    };
    const r = await call(shared.url, 'gus', {});
    expect(await r.text()).toContain('"album":[{"name":"x"');
    expect(onDetachSet.detached).toEqual([0]);
    expect(await (await call(shared.url, 'gus', {})).text()).not.toContain('album');
  });
});
