import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CodecError,
  decodeJson,
  encodeJson,
  finishSteps,
  parseJsonText,
  parseJsonTextSteps,
} from '../src/index';
import { JsonStream, readJsonSteps } from '../src/json-text';
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

/** What reading `text` gives: its value, or the code and message of the error it raises. */
function outcome(text: string | string[], longest: number, maxDepth = 100): unknown {
  try {
    return { value: finishSteps(parseJsonTextSteps(text, maxDepth, longest)) };
  } catch (error) {
    if (!CodecError.isInstance(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

/** `text` cut at the offsets given (taken modulo its length, in order). */
function cut(text: string, offsets: readonly number[]): string[] {
  const at = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  return [...at, text.length].map((end, i) => text.slice(i === 0 ? 0 : at[i - 1], end));
}

describe('parseJsonText of a long text, in pieces', () => {
  const layouts = fc.constantFrom(undefined, 1, '\t');
  const json = (value: unknown, space: string | number | undefined) => JSON.stringify(value, null, space);
  const offsets = fc.array(fc.nat(), { maxLength: 12 });

  test('gives what JSON.parse gives, whatever the length past which containers are streamed and the cuts', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        layouts,
        fc.integer({ min: 1, max: 64 }),
        offsets,
        (value, space, longest, at) => {
          const text = json(value, space);
          expect(outcome(text, longest)).toEqual({ value: JSON.parse(text) });
          expect(outcome(cut(text, at), longest)).toEqual({ value: JSON.parse(text) });
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('refuses what JSON.parse refuses, with CodecError only, and with the same error in pieces', () => {
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
        offsets,
        (value, space, longest, [at, insert], cuts) => {
          const valid = json(value, space);
          const i = at % (valid.length + 1);
          // Replace one character (or insert one at the end).
          const text = valid.slice(0, i) + insert + valid.slice(i + 1);
          const whole = outcome(text, longest) as { value?: unknown; message?: string };
          expect(outcome(cut(text, cuts), longest)).toEqual(whole);
          let expected: unknown;
          try {
            expected = JSON.parse(text);
          } catch {
            expect(whole.value).toBeUndefined();
            return;
          }
          // The edit may have made two member names equal.
          if (whole.message?.includes('appears twice') !== true) expect(whole).toEqual({ value: expected });
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('reads a text cut at every offset, and one character at a time, as the text whole', () => {
    const texts = [
      '{"a\\"b":[1,{"x":"\\\\"},"\\u0041"],"n":{"k":[true,null,-1.5e3]},"s":"\\"\\\\\\"","e":{},"f":[]}',
      '[{"name":"x","v":1},{"name":"y","v":[2,3]},{"name":"z","v":"]}"}]',
      '{"a":[{"k":1,"k":2}]}',
      '[[1,2],[3,,4]]',
      '{"a":[1,2]] ',
      '{"a":"unterminated}',
      '[1,2,[3] x]',
      '{"a":1} {"b":2}',
    ];
    for (const text of texts) {
      for (const longest of [2, 8, 1000]) {
        const whole = outcome(text, longest);
        for (let i = 0; i <= text.length; i++) expect(outcome(cut(text, [i]), longest)).toEqual(whole);
        expect(outcome([...text], longest)).toEqual(whole);
      }
    }
  });

  test('finds the end of a string longer than many pieces, escaped quotes and backslashes across cuts', () => {
    const inner = `${'\\\\'.repeat(5)}\\"${'ab\\\\\\"'.repeat(50)}`;
    const text = `{"s":"${inner}","t":[1]}`;
    for (const size of [1, 2, 3, 7]) {
      const pieces = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(outcome(pieces, 4)).toEqual({ value: JSON.parse(text) });
    }
  });

  test('keeps a "__proto__" member as an own member, streamed as whole', () => {
    const text = `{"__proto__":{"polluted":1},"a":[${'1,'.repeat(100)}1]}`;
    for (const longest of [8, 1000]) {
      const value = finishSteps(parseJsonTextSteps(text, 100, longest)) as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(['__proto__', 'a']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('hands the members of a long array on in order while the pieces after them are still unread', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ n: i, name: `x${i}` }));
    const text = JSON.stringify({ a: items });
    let read = 0;
    const pieces = (function* () {
      for (let i = 0; i < text.length; i += 100) {
        read = i + 100;
        yield text.slice(i, i + 100);
      }
    })();
    const top = finishSteps(readJsonSteps(pieces, 100, 64)) as JsonStream;
    expect(top).toBeInstanceOf(JsonStream);
    const seen: unknown[] = [];
    const readWhenSeen: number[] = [];
    finishSteps(
      top.each((name, a) => {
        expect(name).toBe('a');
        return (a as JsonStream).each((_, item) => {
          seen.push(item);
          readWhenSeen.push(read);
          return undefined;
        });
      }),
    );
    expect(seen).toEqual(items);
    // Each item is handed on within a piece of its end in the text.
    items.forEach((_, i) => {
      expect(readWhenSeen[i]).toBeLessThanOrEqual(JSON.stringify({ a: items.slice(0, i + 1) }).length + 100);
    });
  });

  test('yields between the pieces of a long text', () => {
    const text = JSON.stringify({ a: Array.from({ length: 50_000 }, (_, i) => ({ n: `x${i}` })) });
    const { value, yields } = drain(parseJsonTextSteps(text));
    expect(yields).toBeGreaterThan(10);
    expect(value).toEqual(JSON.parse(text));
  });
});

describe('decodeJson of text in pieces', () => {
  const doc = (n: number) =>
    JSON.stringify({
      'example-jukebox:jukebox': {
        library: {
          artist: Array.from({ length: n }, (_, i) => ({
            name: `artist ${i}`,
            album: [{ name: `album ${i}` }],
          })),
        },
      },
    });

  test('decodes a document in pieces cut anywhere, or whole, to the tree of the value parsed', async () => {
    const schema = await testSchema();
    const text = doc(2000);
    const whole = encodeJson(decodeJson(schema, JSON.parse(text)));
    expect(encodeJson(decodeJson(schema, text))).toBe(whole);
    for (const size of [1000, 4093, 65536]) {
      const pieces = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      expect(encodeJson(decodeJson(schema, pieces[Symbol.iterator]()))).toBe(whole);
    }
    const wrapped = `{"ietf-restconf:data":${text}}`;
    expect(encodeJson(decodeJson(schema, wrapped.match(/[\s\S]{1,999}/g)![Symbol.iterator]()))).toBe(whole);
  });

  test('refuses a document in pieces with the error of the text whole', async () => {
    const schema = await testSchema();
    const text = doc(2000).replace('"artist 1500"', '"artist 1499"');
    const whole = codecError(() => decodeJson(schema, text));
    const pieces = codecError(() => decodeJson(schema, text.match(/[\s\S]{1,777}/g)![Symbol.iterator]()));
    expect([pieces.code, pieces.message]).toEqual([whole.code, whole.message]);
  });

  test('reads "ietf-restconf:data" followed by another member as content naming it, as the value parsed', async () => {
    const schema = await testSchema();
    const text = `{"ietf-restconf:data":${doc(2000)},"example-jukebox:jukebox":{}}`;
    const whole = codecError(() => decodeJson(schema, JSON.parse(text)));
    const pieces = codecError(() => decodeJson(schema, text.match(/[\s\S]{1,999}/g)![Symbol.iterator]()));
    expect([pieces.code, pieces.message]).toEqual([whole.code, whole.message]);
    const lenient = (input: unknown) => encodeJson(decodeJson(schema, input, { strict: false }));
    expect(lenient(text.match(/[\s\S]{1,999}/g)![Symbol.iterator]())).toBe(lenient(JSON.parse(text)));
  });

  test('decodes the metadata and long leaf-lists of a document in pieces as of the value parsed', async () => {
    const schema = await testSchema();
    const value = {
      'codec-types:settings': {
        mode: 'x',
        '@mode': { 'ietf-netconf-with-defaults:default': true },
        servers: Array.from({ length: 5000 }, (_, i) => `server-${i}`),
      },
      'codec-types:types': { tags: Array.from({ length: 5000 }, (_, i) => `tag-${i}`) },
    };
    const text = JSON.stringify(value);
    const expected = encodeJson(decodeJson(schema, value));
    expect(expected).toContain('"@mode"');
    expect(encodeJson(decodeJson(schema, text.match(/[\s\S]{1,1000}/g)![Symbol.iterator]()))).toBe(expected);
  });

  test('refuses pieces holding more than maxSize characters', async () => {
    const schema = await testSchema();
    const e = codecError(() => decodeJson(schema, ['{"a":', '1}'][Symbol.iterator](), { maxSize: 5 }));
    expect([e.code, e.errorTag]).toEqual(['LIMIT_EXCEEDED', 'too-big']);
  });
});
