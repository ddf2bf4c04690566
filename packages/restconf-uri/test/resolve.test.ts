import { describe, expect, test } from 'vitest';
import { parseApiPath, resolveApiPath } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';
import { minimalSchema, testSchema } from './helpers/schema.js';

const resolve = (text: string) => resolveApiPath(parseApiPath(text), testSchema);
const failure = (text: string) => errorOf(() => resolve(text));

describe('resolveApiPath', () => {
  test('maps list key values to key names in key order', () => {
    const { steps } = resolve('/example-top:top/list1=a,b,c/list2=d,e/X');
    expect(steps.map((s) => s.node.name)).toEqual(['top', 'list1', 'list2', 'X']);
    expect(steps[1]?.keys).toEqual([
      { name: 'key1', value: 'a' },
      { name: 'key2', value: 'b' },
      { name: 'key3', value: 'c' },
    ]);
    expect(steps[2]?.keys).toEqual([
      { name: 'key4', value: 'd' },
      { name: 'key5', value: 'e' },
    ]);
  });

  test('resolves a leaf-list entry to its value', () => {
    const { steps } = resolve('/example-top:top/Y=instance-value');
    expect(steps[1]).toMatchObject({ value: 'instance-value' });
    expect(steps[1]?.node.kind).toBe('leaf-list');
  });

  test('resolves an empty path to no steps', () => {
    expect(resolve('')).toEqual({ steps: [] });
  });

  test('resolves a node of an augmenting module written with its module name', () => {
    const { steps } = resolve('/example-jukebox:jukebox/library/artist=A/album=B/example-augment:rating');
    expect(steps[4]?.node).toMatchObject({ module: 'example-augment', namespace: 'urn:example:augment' });
  });

  test('accepts a redundant module name equal to the parent module', () => {
    expect(resolve('/example-jukebox:jukebox/example-jukebox:player').steps[1]?.node.name).toBe('player');
  });

  test('resolves a whole list as the last segment', () => {
    expect(resolve('/example-jukebox:jukebox/playlist').steps[1]?.keys).toBeUndefined();
  });

  test('resolves an action as the last segment', () => {
    expect(resolve('/example-actions:interfaces/interface=eth0/reset').steps[2]?.node.kind).toBe('action');
  });

  test('accepts an unqualified first segment when one module defines it and the option is on', () => {
    const { steps } = resolveApiPath(parseApiPath('/jukebox/player'), testSchema, {
      allowUnqualifiedTopLevel: true,
    });
    expect(steps[0]?.node.module).toBe('example-jukebox');
  });
});

describe('resolveApiPath relative to a base path', () => {
  const base = resolve('/example-jukebox:jukebox/playlist=Foo-One');

  test('continues from the base as a YANG Patch edit target does', () => {
    const { steps } = resolveApiPath(parseApiPath('/song=5'), testSchema, { base });
    expect(steps.map((s) => s.node.name)).toEqual(['jukebox', 'playlist', 'song']);
    expect(steps[2]?.keys).toEqual([{ name: 'index', value: '5' }]);
  });

  test('gives the base itself for the empty path', () => {
    expect(resolveApiPath(parseApiPath('/'), testSchema, { base })).toEqual(base);
  });

  test('resolves unqualified names in the module of the base node', () => {
    expect(resolveApiPath(parseApiPath('name'), testSchema, { base }).steps[2]?.node.kind).toBe('leaf');
  });

  test('rejects a child below a base that ends in a leaf', () => {
    const leafBase = resolve('/example-jukebox:jukebox/player/gap');
    expect(errorOf(() => resolveApiPath(parseApiPath('/x'), testSchema, { base: leafBase })).code).toBe(
      'PATH_NOT_TRAVERSABLE',
    );
  });

  test('rejects a child below a base list given without keys', () => {
    const listBase = resolve('/example-jukebox:jukebox/playlist');
    expect(errorOf(() => resolveApiPath(parseApiPath('/name'), testSchema, { base: listBase })).code).toBe(
      'PATH_KEY_MISMATCH',
    );
  });
});

describe('resolveApiPath errors', () => {
  test('rejects an unqualified first segment with 400 invalid-value and a hint', () => {
    const error = failure('/jukebox');
    expect(error.code).toBe('PATH_MODULE_REQUIRED');
    expect(error.errorTag).toBe('invalid-value');
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('example-jukebox:jukebox');
  });

  test('rejects an unqualified first segment without modulesDefining', () => {
    expect(errorOf(() => resolveApiPath(parseApiPath('/jukebox'), minimalSchema)).code).toBe(
      'PATH_MODULE_REQUIRED',
    );
  });

  test('rejects an ambiguous unqualified name even with the option on', () => {
    const error = errorOf(() =>
      resolveApiPath(parseApiPath('/reboot'), testSchema, { allowUnqualifiedTopLevel: true }),
    );
    expect(error.code).toBe('PATH_MODULE_REQUIRED');
    expect(error.message).toContain('example-ops:reboot or other-ops:reboot');
  });

  test('rejects an unknown node with 400 unknown-element naming it and its position', () => {
    const error = failure('/example-jukebox:jukebox/librar');
    expect(error.code).toBe('PATH_UNKNOWN_NODE');
    expect(error.errorTag).toBe('unknown-element');
    expect(error.httpStatus).toBe(400);
    expect(error.badElement).toBe('librar');
    expect(error.message).toContain('segment 2 (/example-jukebox:jukebox/librar)');
  });

  test('rejects an unknown module', () => {
    expect(failure('/nope:jukebox').code).toBe('PATH_UNKNOWN_NODE');
  });

  test('rejects an augmenting node written without its module name', () => {
    expect(failure('/example-jukebox:jukebox/library/artist=A/album=B/rating').code).toBe(
      'PATH_UNKNOWN_NODE',
    );
  });

  test('rejects too few key values', () => {
    const error = failure('/example-top:top/list1=a,b/list2=d,e');
    expect(error.code).toBe('PATH_KEY_MISMATCH');
    expect(error.message).toContain('takes 3 key values (key1, key2, key3), got 2');
  });

  test('rejects too many key values', () => {
    expect(failure('/example-jukebox:jukebox/library/artist=a,b').code).toBe('PATH_KEY_MISMATCH');
  });

  test('rejects keys on a container', () => {
    const error = failure('/example-jukebox:jukebox=x');
    expect(error.code).toBe('PATH_KEY_MISMATCH');
    expect(error.message).toContain("'jukebox' is a container");
  });

  test('rejects a value on a leaf', () => {
    expect(failure('/example-jukebox:jukebox/player/gap=5').code).toBe('PATH_KEY_MISMATCH');
  });

  test('rejects two values on a leaf-list', () => {
    const error = failure('/example-top:top/Y=a,b');
    expect(error.code).toBe('PATH_KEY_MISMATCH');
    expect(error.message).toContain('exactly one value');
  });

  test('rejects a child of a list entry given without keys', () => {
    const error = failure('/example-jukebox:jukebox/library/artist/name');
    expect(error.code).toBe('PATH_KEY_MISMATCH');
    expect(error.message).toContain('needs its key values (name)');
  });

  test('rejects keys on a list that has none', () => {
    expect(failure('/example-top:top/log=1').code).toBe('PATH_KEY_MISMATCH');
  });

  test('rejects descending through a keyless list', () => {
    expect(failure('/example-top:top/log/line').code).toBe('PATH_KEY_MISMATCH');
  });

  test('rejects a child of a leaf', () => {
    const error = failure('/example-jukebox:jukebox/player/gap/x');
    expect(error.code).toBe('PATH_NOT_TRAVERSABLE');
    expect(error.message).toContain("cannot follow the leaf 'gap'");
  });

  test('rejects a child of anydata', () => {
    expect(failure('/example-top:top/blob/x').code).toBe('PATH_NOT_TRAVERSABLE');
  });

  test('rejects a child of an action', () => {
    expect(failure('/example-actions:interfaces/interface=eth0/reset/input').code).toBe(
      'PATH_NOT_TRAVERSABLE',
    );
  });

  test('rejects an rpc in a data path pointing to /operations', () => {
    const error = failure('/example-jukebox:play');
    expect(error.code).toBe('PATH_NOT_DATA');
    expect(error.message).toContain('/operations');
  });

  test('rejects a nested notification in a data path', () => {
    expect(failure('/example-actions:interfaces/interface=eth0/link-flap').code).toBe('PATH_NOT_DATA');
  });
});
