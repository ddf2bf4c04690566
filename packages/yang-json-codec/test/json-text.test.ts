import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CodecError, decodeJson, finishSteps, parseJsonText, parseJsonTextSteps } from '../src/index';
import { LazyJsonArray, parseInPieces } from '../src/json-text';
import { codecError, drain, testSchema } from './helpers';

describe('parseJsonText', () => {
  test('refuses text nested deeper than maxDepth before parsing it', () => {
    const e = codecError(() => parseJsonText(`${'['.repeat(1_000_000)}x`, 10));
    expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'malformed-message']);
    expect(parseJsonText('[[1]]', 2)).toEqual([[1]]);
  });

  test('refuses an object naming one member twice', () => {
    const e = codecError(() => parseJsonText('{"a":[{"name":"x","name":"y"}]}'));
    expect([e.code, e.errorTag]).toEqual(['JSON_MALFORMED', 'malformed-message']);
    expect(e.message).toBe('malformed JSON: member "name" appears twice in one object (offset 18)');
  });

  test('finds the duplicate in an object of many members', () => {
    const members = Array.from({ length: 100 }, (_, i) => `"k${i}":${i}`);
    const e = codecError(() => parseJsonText(`{${members.join(',')},"k50":1}`));
    expect(e.message).toContain('member "k50" appears twice');
    expect(parseJsonText(`{${members.join(',')}}`)).toHaveProperty('k99', 99);
  });

  test('compares member names decoded', () => {
    expect(codecError(() => parseJsonText('{"ab":1,"a\\u0062":2}')).message).toContain('"ab" appears twice');
  });

  test('takes the same name in different objects, and strings that look like names', () => {
    const text = '{"a":{"a":1},"b":[{"a":"a","x":"\\"a\\":"},{"a":2}],"c":"{\\"a\\":1,\\"a\\":2}"}';
    expect(parseJsonText(text)).toEqual(JSON.parse(text));
  });

  test('refuses text that is not JSON', () => {
    expect(codecError(() => parseJsonText('{"a":')).code).toBe('JSON_MALFORMED');
  });

  test('answers what JSON.parse does for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonText(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  test('finds a member written twice anywhere, and throws only CodecError', () => {
    const object = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 });
    fc.assert(
      fc.property(object, fc.jsonValue({ maxDepth: 2 }), fc.nat(), (inner, extra, pick) => {
        const names = Object.keys(inner);
        const name = names[pick % names.length]!;
        const body = JSON.stringify(inner);
        const text = `[${body.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(extra)}}]`;
        expect(() => parseJsonText(text)).toThrow(CodecError);
      }),
      { numRuns: 500 },
    );
  });
});

describe('decodeJson of text with a duplicate member', () => {
  test('refuses a list entry naming its key twice instead of keeping the last value', async () => {
    const schema = await testSchema();
    const e = codecError(() =>
      decodeJson(schema, '{"example-jukebox:jukebox":{"library":{"artist":[{"name":"x","name":"y"}]}}}'),
    );
    expect([e.code, e.message]).toEqual([
      'JSON_MALFORMED',
      'malformed JSON: member "name" appears twice in one object (offset 61)',
    ]);
  });
});

describe('parseJsonText of a long text, in pieces', () => {
  const layouts = fc.constantFrom(undefined, 1, '\t');
  const json = (value: unknown, space: string | number | undefined) => JSON.stringify(value, null, space);

  test('gives what JSON.parse gives, whatever the piece length, long arrays left lazy or not', () => {
    const resolved = (v: unknown): unknown => {
      if (v instanceof LazyJsonArray) return finishSteps(v.toArray());
      if (Array.isArray(v)) return v.map(resolved);
      if (typeof v === 'object' && v !== null) {
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolved(x)]));
      }
      return v;
    };
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        layouts,
        fc.integer({ min: 1, max: 64 }),
        (value, space, piece) => {
          const text = json(value, space);
          expect(finishSteps(parseInPieces(text, 100, piece))).toEqual(JSON.parse(text));
          expect(resolved(finishSteps(parseInPieces(text, 100, piece, true)))).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('refuses what JSON.parse refuses, whatever the piece length, with CodecError only', () => {
    const edit = fc.tuple(
      fc.nat(),
      fc.constantFrom('', ',', ':', '[', ']', '{', '}', '"', ' ', 'x', '1', '\\'),
    );
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        layouts,
        fc.integer({ min: 1, max: 64 }),
        edit,
        (value, space, piece, [at, insert]) => {
          const valid = json(value, space);
          const i = at % (valid.length + 1);
          // Replace one character (or insert one at the end).
          const text = valid.slice(0, i) + insert + valid.slice(i + 1);
          let expected: unknown;
          try {
            expected = JSON.parse(text);
          } catch {
            expect(() => finishSteps(parseInPieces(text, 100, piece))).toThrow(CodecError);
            return;
          }
          try {
            expect(finishSteps(parseInPieces(text, 100, piece))).toEqual(expected);
          } catch (error) {
            // The edit may have made two member names equal.
            expect((error as Error).message).toContain('appears twice');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('keeps a "__proto__" member as an own member, in pieces as at once', () => {
    const text = `{"__proto__":{"polluted":1},"a":[${'1,'.repeat(100)}1]}`;
    const value = finishSteps(parseInPieces(text, 100, 8)) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('hands the items of a lazy array in order, one piece parsed at a time', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ n: i, name: `x${i}` }));
    const value = finishSteps(parseInPieces(JSON.stringify({ a: items }), 100, 64, true)) as { a: unknown };
    expect(value.a).toBeInstanceOf(LazyJsonArray);
    const seen: unknown[] = [];
    const { yields } = drain(
      (value.a as LazyJsonArray).eachItem(function* (item) {
        seen.push(item);
        yield;
      }),
    );
    expect(seen).toEqual(items);
    // One yield per item from the reader of the items, and more between the pieces parsed.
    expect(yields).toBeGreaterThan(items.length + 10);
  });

  test('yields between the pieces of a long text', () => {
    const text = JSON.stringify({ a: Array.from({ length: 50_000 }, (_, i) => ({ n: `x${i}` })) });
    const { value, yields } = drain(parseJsonTextSteps(text));
    expect(yields).toBeGreaterThan(10);
    expect(value).toEqual(JSON.parse(text));
  });
});
