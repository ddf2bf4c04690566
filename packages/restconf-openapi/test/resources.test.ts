import { compileSchema, parseModule, type SchemaTree } from '@yangkit/yang-schema';
import { Ajv2020 } from 'ajv/dist/2020';
import { beforeAll, describe, expect, test } from 'vitest';
import { type OpenApiDocument, OpenApiError, toOpenApi } from '../src/index';
import { EXAMPLE_MODULES, ROUTING_MODULES, schemaOf } from './helpers';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested OpenAPI objects
type Obj = Record<string, any>;

let examples: SchemaTree;
let doc: OpenApiDocument;
beforeAll(async () => {
  examples = await schemaOf(EXAMPLE_MODULES);
  doc = toOpenApi(examples);
});

const ARTIST = '/data/example-jukebox:jukebox/library/artist={name}';
const ALBUM = `${ARTIST}/album={album-name}`;
const path = (p: string): Obj => {
  const item = doc.paths[p];
  if (item === undefined) throw new Error(`no path ${p}`);
  return item as Obj;
};
const methods = (p: string): string[] =>
  ['get', 'put', 'post', 'patch', 'delete'].filter((m) => path(p)[m] !== undefined);
const paramRefs = (op: Obj): string[] =>
  (op.parameters as Obj[]).map((p) => String(p.$ref).replace('#/components/parameters/', ''));

/** A checker of `doc`'s schema at a JSON pointer (components resolved). */
function checker(document: OpenApiDocument, schema: Obj): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...(document as object), $id: 'https://yangkit.invalid/doc' });
  const absolute = JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', '"https://yangkit.invalid/doc#/components/'),
  );
  const check = ajv.compile(absolute);
  return (value) => check(value) as boolean;
}

describe('data resource paths', () => {
  test('put list keys in the path as parameters, one per key, in the RFC 8040 3.5.3 form', () => {
    expect(path(ARTIST).parameters.map((p: Obj) => [p.name, p.in, p.required])).toEqual([
      ['name', 'path', true],
    ]);
    expect(path(ALBUM).parameters.map((p: Obj) => p.name)).toEqual(['name', 'album-name']);
  });

  test('name a path segment with its module only where the module changes', async () => {
    const paths = Object.keys(toOpenApi(await schemaOf(ROUTING_MODULES)).paths);
    expect(paths).toContain('/data/ietf-interfaces:interfaces/interface={name}/ietf-ip:ipv4/address={ip}');
    expect(paths.some((p) => /\/ietf-interfaces:interface[=/]/.test(p))).toBe(false);
  });

  test('give a list two resources: every entry, and one entry by its keys', () => {
    expect(methods('/data/example-jukebox:jukebox/library/artist')).toEqual(['get']);
    expect(methods(ARTIST)).toEqual(['get', 'put', 'post', 'patch', 'delete']);
  });

  test('allow only GET on state data and on list keys', () => {
    expect(methods('/data/example-jukebox:jukebox/library/artist-count')).toEqual(['get']);
    expect(methods(`${ARTIST}/name`)).toEqual(['get']);
    expect(methods('/data/example-events:events/event={name}/event-count')).toEqual(['get']);
  });

  test('create a list entry with POST on its parent, the entry as an array of one', () => {
    const post = path('/data/example-jukebox:jukebox/library').post;
    const body = post.requestBody.content['application/yang-data+json'].schema;
    const check = checker(doc, body);
    expect(check({ 'example-jukebox:artist': [{ name: 'The Beatles' }] })).toBe(true);
    expect(check({ 'example-jukebox:artist': [{ name: 'A' }, { name: 'B' }] })).toBe(false);
    expect(check({ 'example-jukebox:artist': [{}] })).toBe(false);
    expect(post.responses['201'].headers.Location).toBeDefined();
  });

  test('take PATCH as a plain merge and as a YANG Patch, in JSON and XML', () => {
    expect(Object.keys(path(ARTIST).patch.requestBody.content)).toEqual([
      'application/yang-data+json',
      'application/yang-data+xml',
      'application/yang-patch+json',
      'application/yang-patch+xml',
    ]);
    const patch = checker(doc, path(ARTIST).patch.requestBody.content['application/yang-patch+json'].schema);
    expect(
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'p1',
          edit: [
            {
              'edit-id': '1',
              operation: 'create',
              target: '/album=X',
              value: { 'example-jukebox:album': [{ name: 'X' }] },
            },
          ],
        },
      }),
    ).toBe(true);
    expect(
      patch({
        'ietf-yang-patch:yang-patch': {
          'patch-id': 'p2',
          edit: [{ 'edit-id': '1', operation: 'frobnicate', target: '/' }],
        },
      }),
    ).toBe(false);
    expect(path(ARTIST).patch.responses['200'].content['application/yang-data+json']).toBeDefined();
  });

  test('describe bodies in both encodings, the XML one with the element name and namespace', () => {
    const content = path(ARTIST).get.responses['200'].content;
    const xml = content['application/yang-data+xml'].schema.$ref.replace('#/components/schemas/', '');
    expect((doc.components.schemas as Obj)[xml].xml).toEqual({
      name: 'artist',
      namespace: 'http://example.com/ns/example-jukebox',
    });
    const json = checker(doc, content['application/yang-data+json'].schema);
    expect(
      json({
        'example-jukebox:artist': [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light', year: 2011 }] }],
      }),
    ).toBe(true);
    expect(
      json({ 'example-jukebox:artist': [{ name: 'Foo Fighters', album: [{ name: 'W', year: 'x' }] }] }),
    ).toBe(false);
  });

  test('leave state data out of configuration bodies', () => {
    const library = path('/data/example-jukebox:jukebox/library');
    const get = checker(doc, library.get.responses['200'].content['application/yang-data+json'].schema);
    const put = checker(doc, library.put.requestBody.content['application/yang-data+json'].schema);
    const withState = { 'example-jukebox:library': { 'artist-count': 3 } };
    expect(get(withState)).toBe(true);
    expect(put(withState)).toBe(false);
  });

  test('list the query parameters each method allows (RFC 8040 section 4.8)', () => {
    expect(paramRefs(path(ARTIST).get)).toEqual([
      'content',
      'depth',
      'fields',
      'with-defaults',
      'with-etag',
      'with-last-modified',
      'with-owners',
    ]);
    expect(paramRefs(path(ARTIST).delete)).toEqual(['confirmed', 'confirm-timeout', 'persist', 'persist-id']);
    expect(paramRefs(path(ARTIST).put)).not.toContain('insert');
  });

  test('offer insert and point where a user-ordered list entry is created or replaced', () => {
    const song = '/data/example-jukebox:jukebox/playlist={name}/song={index}';
    expect(paramRefs(path(song).put)).toEqual(expect.arrayContaining(['insert', 'point']));
    expect(paramRefs(path('/data/example-jukebox:jukebox/playlist={name}').post)).toEqual(
      expect.arrayContaining(['insert', 'point']),
    );
  });

  test('document the datastore resource with every top-level node', () => {
    expect(methods('/data')).toEqual(['get', 'put', 'post', 'patch']);
    const check = checker(
      doc,
      path('/data').get.responses['200'].content['application/yang-data+json'].schema,
    );
    expect(check({ 'ietf-restconf:data': { 'example-jukebox:jukebox': { library: {} } } })).toBe(true);
  });

  test('answer errors with the ietf-restconf:errors body of the ietf-restconf module', () => {
    expect(path(ARTIST).get.responses['404']).toEqual({ $ref: '#/components/responses/errors' });
    const errors = (doc.components.responses as Obj).errors.content['application/yang-data+json'].schema;
    const check = checker(doc, errors);
    expect(
      check({
        'ietf-restconf:errors': { error: [{ 'error-type': 'protocol', 'error-tag': 'invalid-value' }] },
      }),
    ).toBe(true);
    expect(
      check({
        'ietf-restconf:errors': { error: [{ 'error-type': 'nonsense', 'error-tag': 'invalid-value' }] },
      }),
    ).toBe(false);
  });
});

describe('operations', () => {
  test('document an rpc with input and without output as POST answering 204', () => {
    const post = path('/operations/example-ops:reboot').post;
    expect(post.requestBody.required).toBe(false);
    expect(post.responses['204']).toBeDefined();
    const check = checker(doc, post.requestBody.content['application/yang-data+json'].schema);
    expect(check({ 'example-ops:input': { delay: 600, message: 'bye' } })).toBe(true);
    expect(check({ 'example-ops:input': { delay: -1 } })).toBe(false);
  });

  test('document an rpc without input as POST without a body, its output as the 200 reply', () => {
    const post = path('/operations/example-ops:get-reboot-info').post;
    expect(post.requestBody).toBeUndefined();
    const check = checker(doc, post.responses['200'].content['application/yang-data+json'].schema);
    expect(check({ 'example-ops:output': { 'reboot-time': 30 } })).toBe(true);
  });

  test('document an action below its list entry, with the entry keys as path parameters', () => {
    const item = path('/data/example-actions:interfaces/interface={name}/reset');
    expect(item.parameters.map((p: Obj) => p.name)).toEqual(['name']);
    expect(item['x-yang'].kind).toBe('action');
    expect(Object.keys(item)).toContain('post');
    const output = path('/data/example-actions:interfaces/interface={name}/get-last-reset-time').post;
    const check = checker(doc, output.responses['200'].content['application/yang-data+json'].schema);
    expect(check({ 'example-actions:output': { 'last-reset': '2016-07-07T10:00:00Z' } })).toBe(true);
    expect(check({ 'example-actions:output': { 'last-reset': 5 } })).toBe(false);
  });

  test('list the notifications with the schema an event stream sends them in', () => {
    const event = (doc['x-yang-notifications'] as Obj[]).find((n) => n.name === 'event')!;
    expect(event.module).toBe('example-mod');
    const check = checker(doc, event.schema);
    expect(
      check({
        'ietf-restconf:notification': {
          eventTime: '2026-01-01T00:00:00Z',
          'example-mod:event': { 'event-class': 'fault' },
        },
      }),
    ).toBe(true);
    expect(Object.keys(doc.paths)).toContain('/streams/{stream}');
  });
});

describe('options', () => {
  test('document one module with the paths down to what it adds to other modules', async () => {
    const ip = toOpenApi(await schemaOf(ROUTING_MODULES), { modules: ['ietf-ip'] });
    const paths = Object.keys(ip.paths);
    expect(paths).toContain('/data/ietf-interfaces:interfaces/interface={name}/ietf-ip:ipv4');
    expect(paths).not.toContain('/data/ietf-interfaces:interfaces/interface={name}');
    expect(paths).not.toContain('/data');
    expect(paths.every((p) => p.includes('ietf-ip:') || p.startsWith('/streams'))).toBe(true);
  });

  test('leaves out what include refuses, with everything below it', () => {
    const some = toOpenApi(examples, { include: (n) => n.name !== 'library' && n.name !== 'reboot' });
    const paths = Object.keys(some.paths);
    expect(paths).toContain('/data/example-jukebox:jukebox/player');
    expect(paths.some((p) => p.includes('/library'))).toBe(false);
    expect(paths).not.toContain('/operations/example-ops:reboot');
  });

  test('declares HTTP Basic and client certificates as security schemes, with 401 answers', () => {
    const secured = toOpenApi(examples, { security: { basic: true, mutualTls: true } });
    expect((secured.components as Obj).securitySchemes).toEqual({
      basic: { type: 'http', scheme: 'basic' },
      mutualTLS: expect.objectContaining({ type: 'mutualTLS' }),
    });
    expect(secured.security).toEqual([{ basic: [] }, { mutualTLS: [] }]);
    expect((secured.paths[ARTIST] as Obj).get.responses['401']).toBeDefined();
    expect(path(ARTIST).get.responses['401']).toBeUndefined();
  });

  test('writes member names without modules for simpleNames', () => {
    const simple = toOpenApi(examples, { simpleNames: true });
    const check = checker(
      simple,
      (simple.paths[ARTIST] as Obj).get.responses['200'].content['application/yang-data+json'].schema,
    );
    expect(check({ artist: [{ name: 'Foo Fighters' }] })).toBe(true);
  });

  test('starts the paths at the server URL or the root', () => {
    expect(toOpenApi(examples, { root: '/api' }).servers).toEqual([{ url: '/api' }]);
    expect(toOpenApi(examples, { serverUrl: 'https://r1/restconf' }).servers).toEqual([
      { url: 'https://r1/restconf' },
    ]);
  });

  test('refuses a module the schema does not implement', () => {
    expect(() => toOpenApi(examples, { modules: ['no-such-module'] })).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_MODULE' }),
    );
  });

  test('needs ietf-restconf in the schema for the errors body', () => {
    const bare = compileSchema([
      parseModule('module m { namespace "urn:m"; prefix m; leaf x { type string; } }'),
    ]);
    let error: unknown;
    try {
      toOpenApi(bare);
    } catch (e) {
      error = e;
    }
    expect(OpenApiError.isInstance(error) && error.code).toBe('MISSING_MODULE');
  });
});
