import { describe, expect, test } from 'vitest';
import {
  parseApiPath,
  parseFields,
  type ResolvedFieldsNode,
  resolveApiPath,
  resolveFields,
} from '../src/index.js';
import { errorOf } from './helpers/error-of.js';
import { testSchema } from './helpers/schema.js';

const target = (text: string) => resolveApiPath(parseApiPath(text), testSchema).steps.at(-1)?.node;
const names = (nodes: readonly ResolvedFieldsNode[]): unknown =>
  nodes.map((n) => (n.children.length === 0 ? n.node.name : { [n.node.name]: names(n.children) }));

describe('resolveFields', () => {
  test('binds fields below a list entry to schema nodes', () => {
    const resolved = resolveFields(
      parseFields('name;album(name;year)'),
      testSchema,
      target('/example-jukebox:jukebox/library/artist=A'),
    );
    expect(names(resolved)).toEqual(['name', { album: ['name', 'year'] }]);
  });

  test('takes an augmenting node with its module name', () => {
    const [album] = resolveFields(
      parseFields('album/example-augment:rating'),
      testSchema,
      target('/example-jukebox:jukebox/library/artist=A'),
    );
    expect(album?.children[0]?.node.module).toBe('example-augment');
  });

  test('binds module-qualified fields below the datastore', () => {
    expect(names(resolveFields(parseFields('example-jukebox:jukebox/player'), testSchema))).toEqual([
      { jukebox: ['player'] },
    ]);
  });

  test('rejects an unqualified first-level field below the datastore', () => {
    expect(errorOf(() => resolveFields(parseFields('jukebox'), testSchema)).code).toBe(
      'PATH_MODULE_REQUIRED',
    );
  });

  test('rejects an unknown field naming it and its parent', () => {
    const error = errorOf(() =>
      resolveFields(
        parseFields('album(titel)'),
        testSchema,
        target('/example-jukebox:jukebox/library/artist=A'),
      ),
    );
    expect(error.code).toBe('PATH_UNKNOWN_NODE');
    expect(error.message).toBe("fields: unknown schema node 'titel' under 'album'");
  });

  test('rejects a selection below a leaf', () => {
    expect(
      errorOf(() =>
        resolveFields(parseFields('gap/x'), testSchema, target('/example-jukebox:jukebox/player')),
      ).code,
    ).toBe('PATH_NOT_TRAVERSABLE');
  });

  test('rejects fields on a leaf target', () => {
    expect(
      errorOf(() =>
        resolveFields(parseFields('x'), testSchema, target('/example-jukebox:jukebox/player/gap')),
      ).code,
    ).toBe('PATH_NOT_TRAVERSABLE');
  });

  test('rejects an action in fields', () => {
    expect(
      errorOf(() =>
        resolveFields(parseFields('interface/reset'), testSchema, target('/example-actions:interfaces')),
      ).code,
    ).toBe('PATH_NOT_DATA');
  });
});
