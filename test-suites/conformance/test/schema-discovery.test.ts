import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsOf, type Server, sendJson, sendXml, startServer } from './harness.js';

// Schema discovery (RFC 8040 section 3.7) through the YANG library (RFC 7895, RFC 8525), over HTTP.
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

interface LibraryModule {
  name: string;
  revision?: string;
  schema?: string;
  location?: string[];
}

async function json<T>(path: string): Promise<T> {
  const r = await s.fetch(path, { headers: { Accept: DATA_JSON } });
  expect(r.status).toBe(200);
  return (await r.json()) as T;
}

/** GETs a URL the library names (on this server) and answers the module text. */
async function text(url: string): Promise<string> {
  expect(url.startsWith(`${s.gateway.url}/restconf/yang/`)).toBe(true);
  const r = await fetch(url, { headers: { Accept: 'application/yang' } });
  expect([r.status, r.headers.get('content-type')]).toEqual([200, 'application/yang']);
  return r.text();
}

describe('YANG library URLs', () => {
  test('modules-state/module/schema names a URL that answers each module', async () => {
    const body = await json<{ 'ietf-yang-library:modules-state': { module: LibraryModule[] } }>(
      '/restconf/data/ietf-yang-library:modules-state',
    );
    const modules = body['ietf-yang-library:modules-state'].module;
    const jukebox = modules.find((m) => m.name === 'example-jukebox')!;
    expect(jukebox.schema).toBe(`${s.gateway.url}/restconf/yang/example-jukebox@2016-08-15`);
    for (const m of modules) expect(await text(m.schema!)).toMatch(new RegExp(`^(sub)?module ${m.name} `));
  });

  test('yang-library/module-set/module/location names the same URLs', async () => {
    const body = await json<{ 'ietf-yang-library:module-set': { module: LibraryModule[] }[] }>(
      '/restconf/data/ietf-yang-library:yang-library/module-set',
    );
    const modules = body['ietf-yang-library:module-set'][0]!.module;
    const ops = modules.find((m) => m.name === 'example-ops')!;
    expect(ops.location).toEqual([`${s.gateway.url}/restconf/yang/example-ops@2016-07-07`]);
    for (const m of modules) expect(await text(m.location![0]!)).toContain(`module ${m.name} {`);
  });
});

describe('{+restconf}/yang', () => {
  test('without a module is a clear 404', async () => {
    const r = await s.fetch('/restconf/yang', { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(404);
    const [error] = await errorsOf(r);
    expect(error?.['error-message']).toMatch(/\/yang\/<module>\[@<revision>\]/);
  });
});

describe('ietf-netconf-monitoring:get-schema as an operation', () => {
  const GET_SCHEMA = '/restconf/operations/ietf-netconf-monitoring:get-schema';
  const input = { 'ietf-netconf-monitoring:input': { identifier: 'example-jukebox', format: 'yang' } };

  test('answers the module text in data in JSON', async () => {
    const text = await (await s.fetch('/restconf/yang/example-jukebox@2016-08-15')).text();
    const r = await s.fetch(GET_SCHEMA, sendJson('POST', input, { Accept: DATA_JSON }));
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'ietf-netconf-monitoring:output': { data: unknown } };
    expect(body['ietf-netconf-monitoring:output'].data).toBe(text);
  });

  test('answers the module text in data in XML', async () => {
    const r = await s.fetch(
      GET_SCHEMA,
      sendXml(
        'POST',
        '<input xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"><identifier>example-jukebox</identifier></input>',
        { Accept: DATA_XML },
      ),
    );
    expect(r.status).toBe(200);
    const body = await r.text();
    expect(body).toMatch(/<data>module example-jukebox \{/);
    expect(body).toContain('namespace "http://example.com/ns/example-jukebox";');
  });
});
