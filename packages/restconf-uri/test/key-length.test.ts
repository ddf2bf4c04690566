import { describe, expect, test } from 'vitest';
import { findLongKey, type ResolvedApiPath } from '../src/index.js';

const list = { kind: 'list', name: 'artist', module: 'm', keys: ['name'] } as never;

function path(value: string): ResolvedApiPath {
  return { steps: [{ node: list, keys: [{ name: 'name', value }] }] };
}

describe('findLongKey', () => {
  test('finds nothing when every key fits the limit', () => {
    expect(findLongKey(path('k'.repeat(16)), 16)).toBeUndefined();
  });

  test('names the key over the limit and its step', () => {
    const long = findLongKey(path('k'.repeat(17)), 16);
    expect(long?.key).toEqual({ name: 'name', value: 'k'.repeat(17) });
    expect(long?.step.node).toBe(list);
  });

  test('counts UTF-8 bytes: 8 two-byte characters fit 16 bytes, 9 do not', () => {
    expect(findLongKey(path('é'.repeat(8)), 16)).toBeUndefined();
    expect(findLongKey(path('é'.repeat(9)), 16)).toBeDefined();
  });

  test('counts a surrogate pair as 4 bytes', () => {
    expect(findLongKey(path('😀'.repeat(4)), 16)).toBeUndefined();
    expect(findLongKey(path(`${'😀'.repeat(4)}k`), 16)).toBeDefined();
  });
});
