import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { classifyTarget, formatTarget, type RequestTarget } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';

describe('formatTarget', () => {
  test.each<[RequestTarget, string]>([
    [{ kind: 'well-known-host-meta', format: 'xrd' }, '/.well-known/host-meta'],
    [{ kind: 'api-root' }, '/restconf'],
    [{ kind: 'datastore' }, '/restconf/data'],
    [
      {
        kind: 'data',
        path: {
          segments: [
            { module: 'example-jukebox', name: 'jukebox' },
            { name: 'playlist', keys: ['Foo One'] },
          ],
        },
      },
      '/restconf/data/example-jukebox:jukebox/playlist=Foo%20One',
    ],
    [{ kind: 'operation', module: 'example-ops', name: 'reboot' }, '/restconf/operations/example-ops:reboot'],
    [
      { kind: 'schema', module: 'example-jukebox', revision: '2016-08-15' },
      '/restconf/yang/example-jukebox@2016-08-15',
    ],
    [{ kind: 'stream', encoding: 'json', name: 'NETCONF' }, '/restconf/streams/json-NETCONF'],
    [{ kind: 'subscription', id: '22' }, '/restconf/subscriptions/22'],
    [
      { kind: 'nmda-datastore', datastore: { module: 'ietf-datastores', name: 'operational' } },
      '/restconf/ds/ietf-datastores:operational',
    ],
  ])('formats %j', (target, expected) => {
    expect(formatTarget(target)).toBe(expected);
  });

  test('uses the given root', () => {
    expect(formatTarget({ kind: 'datastore' }, { root: 'api/' })).toBe('/api/data');
  });

  test('formats the api root at the host root as a slash', () => {
    expect(formatTarget({ kind: 'api-root' }, { root: '/' })).toBe('/');
  });

  test('rejects a stream encoding holding a dash', () => {
    expect(errorOf(() => formatTarget({ kind: 'stream', encoding: 'a-b', name: 'c' })).code).toBe(
      'FORMAT_UNREPRESENTABLE',
    );
  });

  test('rejects an operation name that is not an identifier', () => {
    expect(errorOf(() => formatTarget({ kind: 'operation', name: 'a/b' })).code).toBe(
      'FORMAT_UNREPRESENTABLE',
    );
  });

  test('classifyTarget(formatTarget(t)) equals t for generated targets', () => {
    const id = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/);
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 10 });
    const segment = fc.record(
      {
        module: id,
        name: id,
        keys: fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['name'] },
    );
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => ({ segments }));
    const target: fc.Arbitrary<RequestTarget> = fc.oneof(
      fc.constant({ kind: 'api-root' as const }),
      fc.constant({ kind: 'datastore' as const }),
      fc.constant({ kind: 'operations' as const }),
      fc.constant({ kind: 'version' as const }),
      fc.constant({ kind: 'yang-library-version' as const }),
      fc
        .constantFrom('xrd' as const, 'json' as const)
        .map((format) => ({ kind: 'well-known-host-meta' as const, format })),
      path.map((p) => ({ kind: 'data' as const, path: p })),
      fc.record(
        { kind: fc.constant('operation' as const), module: id, name: id },
        { requiredKeys: ['kind', 'name'] },
      ),
      fc.record(
        { kind: fc.constant('schema' as const), module: id, revision: fc.constant('2016-08-15') },
        { requiredKeys: ['kind', 'module'] },
      ),
      fc.record({
        kind: fc.constant('stream' as const),
        encoding: fc.constantFrom('xml', 'json'),
        name: text,
      }),
      fc.record({ kind: fc.constant('subscription' as const), id: text }),
      fc
        .record({ module: id, name: id })
        .map((datastore) => ({ kind: 'nmda-datastore' as const, datastore })),
      fc
        .tuple(fc.record({ module: id, name: id }), path)
        .map(([datastore, p]) => ({ kind: 'nmda-data' as const, datastore, path: p })),
    );
    const root = fc.constantFrom('/restconf', '/', '/a/b');
    fc.assert(
      fc.property(target, root, (t, r) => {
        expect(classifyTarget(formatTarget(t, { root: r }), { root: r })).toEqual(t);
      }),
      { numRuns: 2000 },
    );
  });
});
