import { describe, expect, test } from 'vitest';
import { resolveOperation } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';
import { minimalSchema, testSchema } from './helpers/schema.js';

describe('resolveOperation', () => {
  test('resolves a qualified operation', () => {
    expect(resolveOperation({ module: 'example-jukebox', name: 'play' }, testSchema)).toMatchObject({
      kind: 'rpc',
      module: 'example-jukebox',
    });
  });

  test('resolves an unqualified operation defined by one module', () => {
    expect(resolveOperation({ name: 'play' }, testSchema).module).toBe('example-jukebox');
  });

  test('rejects an unqualified operation two modules define, naming both', () => {
    const error = errorOf(() => resolveOperation({ name: 'reboot' }, testSchema));
    expect(error.code).toBe('PATH_MODULE_REQUIRED');
    expect(error.message).toContain('example-ops, other-ops');
  });

  test('rejects an unqualified operation when the schema cannot list modules', () => {
    expect(errorOf(() => resolveOperation({ name: 'play' }, minimalSchema)).code).toBe('PATH_UNKNOWN_NODE');
  });

  test('rejects an unknown operation', () => {
    const error = errorOf(() => resolveOperation({ module: 'example-jukebox', name: 'stop' }, testSchema));
    expect(error.code).toBe('PATH_UNKNOWN_NODE');
    expect(error.errorTag).toBe('unknown-element');
  });

  test('rejects a data node named as an operation', () => {
    expect(
      errorOf(() => resolveOperation({ module: 'example-jukebox', name: 'jukebox' }, testSchema)).code,
    ).toBe('PATH_NOT_OPERATION');
  });
});
