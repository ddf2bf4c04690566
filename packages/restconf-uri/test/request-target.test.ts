import { describe, expect, test } from 'vitest';
import { classifyTarget, parseRequest } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';

describe('classifyTarget', () => {
  test.each([
    ['/.well-known/host-meta', { kind: 'well-known-host-meta', format: 'xrd' }],
    ['/.well-known/host-meta.json', { kind: 'well-known-host-meta', format: 'json' }],
    ['/restconf', { kind: 'api-root' }],
    ['/restconf/', { kind: 'api-root' }],
    ['/restconf/data', { kind: 'datastore' }],
    ['/restconf/data/', { kind: 'datastore' }],
    ['/restconf/operations', { kind: 'operations' }],
    ['/restconf/operations/example-ops:reboot', { kind: 'operation', module: 'example-ops', name: 'reboot' }],
    ['/restconf/operations/reboot', { kind: 'operation', name: 'reboot' }],
    ['/restconf/yang-library-version', { kind: 'yang-library-version' }],
    ['/restconf/version', { kind: 'version' }],
    ['/restconf/yang', { kind: 'schema' }],
    ['/restconf/yang/example-jukebox', { kind: 'schema', module: 'example-jukebox' }],
    [
      '/restconf/yang/example-jukebox@2016-08-15',
      { kind: 'schema', module: 'example-jukebox', revision: '2016-08-15' },
    ],
    ['/restconf/stream', { kind: 'stream' }],
    ['/restconf/streams', { kind: 'stream' }],
    ['/restconf/streams/json-NETCONF', { kind: 'stream', encoding: 'json', name: 'NETCONF' }],
    ['/restconf/streams/xml-my-stream', { kind: 'stream', encoding: 'xml', name: 'my-stream' }],
    ['/restconf/subscriptions/22', { kind: 'subscription', id: '22' }],
    [
      '/restconf/ds/ietf-datastores:operational',
      { kind: 'nmda-datastore', datastore: { module: 'ietf-datastores', name: 'operational' } },
    ],
  ])('classifies %s', (pathname, expected) => {
    expect(classifyTarget(pathname)).toEqual(expected);
  });

  test('parses the api-path of a data resource', () => {
    expect(classifyTarget('/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters')).toEqual({
      kind: 'data',
      path: {
        segments: [
          { module: 'example-jukebox', name: 'jukebox' },
          { name: 'library' },
          { name: 'artist', keys: ['Foo Fighters'] },
        ],
      },
    });
  });

  test('parses the api-path of an NMDA data resource', () => {
    expect(classifyTarget('/restconf/ds/ietf-datastores:running/example-jukebox:jukebox')).toEqual({
      kind: 'nmda-data',
      datastore: { module: 'ietf-datastores', name: 'running' },
      path: { segments: [{ module: 'example-jukebox', name: 'jukebox' }] },
    });
  });

  test('uses a custom root', () => {
    expect(classifyTarget('/top/api/data', { root: '/top/api/' })).toEqual({ kind: 'datastore' });
  });

  test('reports api-path error offsets relative to the whole path', () => {
    const error = errorOf(() => classifyTarget('/restconf/data/a:b//c'));
    expect(error.code).toBe('URI_EMPTY_SEGMENT');
    expect(error.offset).toBe(19);
  });

  test('rejects a path outside the root with 404', () => {
    const error = errorOf(() => classifyTarget('/other/data'));
    expect(error.code).toBe('URI_RESOURCE_NOT_FOUND');
    expect(error.httpStatus).toBe(404);
    expect(error.errorTag).toBe('invalid-value');
  });

  test('rejects an unknown resource under the root naming it', () => {
    const error = errorOf(() => classifyTarget('/restconf/datum'));
    expect(error.httpStatus).toBe(404);
    expect(error.message).toContain("'datum'");
  });

  test('rejects an operation path with two segments', () => {
    expect(errorOf(() => classifyTarget('/restconf/operations/a:b/c')).httpStatus).toBe(404);
  });

  test('rejects an unqualified NMDA datastore with 400', () => {
    const error = errorOf(() => classifyTarget('/restconf/ds/running'));
    expect(error.code).toBe('URI_BAD_IDENTIFIER');
    expect(error.httpStatus).toBe(400);
  });

  test('rejects a schema revision that is not a date', () => {
    expect(errorOf(() => classifyTarget('/restconf/yang/m@2016')).code).toBe('URI_BAD_IDENTIFIER');
  });

  test('rejects a stream location without an encoding', () => {
    expect(errorOf(() => classifyTarget('/restconf/streams/NETCONF')).httpStatus).toBe(404);
  });

  test('rejects a subscription without an id', () => {
    expect(errorOf(() => classifyTarget('/restconf/subscriptions')).httpStatus).toBe(404);
  });

  test('decodes a percent-encoded subscription id', () => {
    expect(classifyTarget('/restconf/subscriptions/a%2Fb')).toEqual({ kind: 'subscription', id: 'a/b' });
  });

  test('rejects a path longer than maxLength', () => {
    expect(errorOf(() => classifyTarget(`/restconf/data/a:${'b'.repeat(100)}`, { maxLength: 50 })).code).toBe(
      'URI_TOO_LONG',
    );
  });
});

describe('parseRequest', () => {
  test('classifies the path and validates the query for it', () => {
    const { target, query } = parseRequest('/restconf/data/example-jukebox:jukebox?depth=2&content=config', {
      method: 'GET',
    });
    expect(target.kind).toBe('data');
    expect(query.depth).toBe(2);
    expect(query.content).toBe('config');
  });

  test('rejects a query parameter the classified resource does not allow', () => {
    expect(
      errorOf(() => parseRequest('/restconf/operations/example-ops:reboot?depth=1', { method: 'POST' })).code,
    ).toBe('QUERY_PARAMETER_NOT_ALLOWED');
  });

  test('drops a fragment', () => {
    expect(parseRequest('/restconf/data#x', { method: 'GET' }).target).toEqual({ kind: 'datastore' });
  });
});
