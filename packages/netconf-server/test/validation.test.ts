import { connectStream, duplexPair } from '@yangkit/netconf-client';
import type { SchemaTree } from '@yangkit/yang-schema';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer } from '../src/server.js';
import { rpcErrorOf } from './helpers.js';

const NS = 'urn:example:validation';
const MODULE = `module example-validation {
  yang-version 1.1;
  namespace "${NS}";
  prefix v;
  container top {
    leaf percent {
      type int8 { range "0..100" { error-message "percent must be 0..100"; error-app-tag "bad-percent"; } }
    }
    leaf code {
      type string { pattern "[A-Z]{3}" { error-message "three capitals"; error-app-tag "bad-code"; } }
    }
    list server {
      key name;
      unique "ip port";
      max-elements 3;
      min-elements 0;
      leaf name { type string; }
      leaf ip { type string; }
      leaf port { type uint16; }
    }
    leaf primary {
      type leafref { path "../server/name"; }
    }
    container limits {
      must "max >= min" { error-message "max must not be below min"; error-app-tag "limits-order"; }
      leaf min { type uint32; default 0; }
      leaf max { type uint32; default 10; }
    }
    choice transport {
      case tcp { leaf tcp-port { type uint16; } }
      case udp { leaf udp-port { type uint16; } }
    }
    leaf-list tags { type string; ordered-by user; }
    leaf extra { when "../percent > 50"; type string; }
  }
}`;

let schema: SchemaTree;
let server: NetconfServer | undefined;
beforeAll(async () => {
  schema = await loadServerSchema({ texts: [MODULE], modules: ['example-validation'] });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session() {
  server = await NetconfServer.create({ schema });
  const [a, b] = duplexPair();
  server.connect(a, { username: 'v' });
  return connectStream(b);
}

const top = (inner: string) => `<top xmlns="${NS}">${inner}</top>`;

test('a range violation carries the YANG error-message and error-app-tag', async () => {
  const c = await session();
  const e = await rpcErrorOf(c.editConfig({ target: 'running', config: top('<percent>101</percent>') }));
  expect(e.errors[0]).toMatchObject({
    errorTag: 'invalid-value',
    errorAppTag: 'bad-percent',
    errorMessage: 'percent must be 0..100',
  });
});

test('a pattern violation carries the YANG error-message and error-app-tag', async () => {
  const c = await session();
  const e = await rpcErrorOf(c.editConfig({ target: 'running', config: top('<code>abc</code>') }));
  expect(e.errors[0]).toMatchObject({ errorAppTag: 'bad-code', errorMessage: 'three capitals' });
});

test('a false must reports its error-message and error-app-tag', async () => {
  const c = await session();
  const e = await rpcErrorOf(
    c.editConfig({ target: 'running', config: top('<limits><min>5</min><max>2</max></limits>') }),
  );
  expect(e.errors[0]).toMatchObject({
    errorTag: 'operation-failed',
    errorAppTag: 'limits-order',
    errorMessage: 'max must not be below min',
  });
});

test('a leafref to a missing instance fails with data-missing and instance-required', async () => {
  const c = await session();
  const e = await rpcErrorOf(c.editConfig({ target: 'running', config: top('<primary>nope</primary>') }));
  expect(e.errors[0]).toMatchObject({ errorTag: 'data-missing', errorAppTag: 'instance-required' });
});

test('a leafref to an existing entry is accepted, and removing the target is refused', async () => {
  const c = await session();
  await c.editConfig({
    target: 'running',
    config: top('<server><name>a</name></server><primary>a</primary>'),
  });
  const e = await rpcErrorOf(
    c.editConfig({
      target: 'running',
      config: `<top xmlns="${NS}" xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0"><server nc:operation="delete"><name>a</name></server></top>`,
    }),
  );
  expect(e.errors[0]).toMatchObject({ errorTag: 'data-missing', errorAppTag: 'instance-required' });
});

test('a unique violation fails with data-not-unique', async () => {
  const c = await session();
  const e = await rpcErrorOf(
    c.editConfig({
      target: 'running',
      config: top(
        '<server><name>a</name><ip>1.1.1.1</ip><port>80</port></server><server><name>b</name><ip>1.1.1.1</ip><port>80</port></server>',
      ),
    }),
  );
  expect(e.errors[0]).toMatchObject({ errorTag: 'operation-failed', errorAppTag: 'data-not-unique' });
});

test('more entries than max-elements fails with too-many-elements', async () => {
  const c = await session();
  const servers = ['a', 'b', 'c', 'd'].map((n) => `<server><name>${n}</name></server>`).join('');
  const e = await rpcErrorOf(c.editConfig({ target: 'running', config: top(servers) }));
  expect(e.errors[0]).toMatchObject({ errorTag: 'operation-failed', errorAppTag: 'too-many-elements' });
});

test('setting one case of a choice removes the other case', async () => {
  const c = await session();
  await c.editConfig({ target: 'running', config: top('<tcp-port>80</tcp-port>') });
  await c.editConfig({ target: 'running', config: top('<udp-port>53</udp-port>') });
  const data = await c.getConfig({ source: 'running' });
  expect(data).toContain('<udp-port>53</udp-port>');
  expect(data).not.toContain('tcp-port');
});

test('a node whose when is false is refused', async () => {
  const c = await session();
  const e = await rpcErrorOf(
    c.editConfig({ target: 'running', config: top('<percent>10</percent><extra>x</extra>') }),
  );
  expect(e.errors[0]!.errorAppTag).toBe('when-violation');
});

test('insert first and insert after order a user-ordered leaf-list', async () => {
  const c = await session();
  const Y = 'urn:ietf:params:xml:ns:yang:1';
  await c.editConfig({ target: 'running', config: top('<tags>b</tags><tags>c</tags>') });
  await c.editConfig({
    target: 'running',
    config: `<top xmlns="${NS}" xmlns:yang="${Y}"><tags yang:insert="first">a</tags><tags yang:insert="after" yang:value="b">x</tags></top>`,
  });
  const data = await c.getConfig({ source: 'running' });
  expect([...data.matchAll(/<tags>(\w)<\/tags>/g)].map((m) => m[1])).toEqual(['a', 'b', 'x', 'c']);
});

test('validate reports errors of the candidate without changing running', async () => {
  const c = await session();
  await c.editConfig({ target: 'candidate', config: top('<primary>ghost</primary>') });
  const e = await rpcErrorOf(c.validate({ source: 'candidate' }));
  expect(e.errors[0]!.errorAppTag).toBe('instance-required');
});

test('full validation re-checks a must elsewhere in the datastore on every edit', async () => {
  const module = `module example-far {
    yang-version 1.1;
    namespace "urn:example:far";
    prefix f;
    container a { leaf limit { type uint8; } }
    container b { leaf value { type uint8; must "not(/f:a/f:limit) or . <= /f:a/f:limit" { error-app-tag "over-limit"; } } }
  }`;
  const farSchema = await loadServerSchema({ texts: [module], modules: ['example-far'] });
  server = await NetconfServer.create({ schema: farSchema, validation: 'full' });
  const [a, b] = duplexPair();
  server.connect(a, { username: 'v' });
  const c = await connectStream(b);
  await c.editConfig({ target: 'running', config: '<b xmlns="urn:example:far"><value>5</value></b>' });
  const e = await rpcErrorOf(
    c.editConfig({ target: 'running', config: '<a xmlns="urn:example:far"><limit>3</limit></a>' }),
  );
  expect(e.errors[0]!.errorAppTag).toBe('over-limit');
});
