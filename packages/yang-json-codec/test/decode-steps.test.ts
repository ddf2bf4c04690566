import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  CodecError,
  decodeJson,
  decodeJsonSteps,
  decodeXml,
  decodeXmlSteps,
  encodeJson,
  encodeXml,
  finishInSlices,
  finishSteps,
} from '../src/index';
import { drain, SHARED_YANG } from './helpers';
import { InstanceGenerator, prng } from './instance-generator';

const MODULES = ['ietf-interfaces', 'ietf-ip', 'iana-if-type', 'example-jukebox'];
let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadSchema({ paths: [SHARED_YANG], modules: MODULES });
}, 60_000);

/** A JSON body of `count` playlists. */
function playlists(count: number): string {
  const entries = Array.from({ length: count }, (_, i) => `{"name":"p${i}","description":"d${i}"}`);
  return `{"example-jukebox:jukebox":{"playlist":[${entries.join(',')}]}}`;
}

/** What a run of steps gives: its result or its error's code and message. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return CodecError.isInstance(error) ? [error.code, error.message] : error;
  }
}

describe('decoding in steps', () => {
  test('decodes generated JSON and XML documents in slices to the tree decoded at once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const doc = new InstanceGenerator(schema, prng(seed)).document(MODULES);
        const text = JSON.stringify(doc);
        const once = decodeJson(schema, text);
        const sliced = await finishInSlices(decodeJsonSteps(schema, text), { sliceMs: 0 });
        expect(encodeJson(sliced)).toBe(encodeJson(once));
        const xml = encodeXml(once);
        const fromXml = await finishInSlices(decodeXmlSteps(schema, xml), { sliceMs: 0 });
        expect(encodeXml(fromXml)).toBe(encodeXml(decodeXml(schema, xml)));
      }),
      { numRuns: 60 },
    );
  });

  test('yields while a big JSON body decodes, and gives the tree decoded at once', () => {
    const text = playlists(20_000);
    const { value, yields } = drain(decodeJsonSteps(schema, text));
    expect(yields).toBeGreaterThan(50);
    expect(encodeJson(value)).toBe(encodeJson(decodeJson(schema, text)));
  });

  test('yields while a big XML body decodes', () => {
    const xml = encodeXml(decodeJson(schema, playlists(5_000)));
    const { value, yields } = drain(decodeXmlSteps(schema, xml));
    expect(yields).toBeGreaterThan(20);
    expect(encodeXml(value)).toBe(xml);
  });

  test('lets timers run between slices while a big body decodes', async () => {
    const text = playlists(40_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await finishInSlices(decodeJsonSteps(schema, text), { sliceMs: 2 });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(0);
  });

  test('fails in slices with the error of the decode at once (node limit, bad value, malformed text)', async () => {
    const bodies = [
      [playlists(3_000), { maxNodes: 5_000 }],
      [playlists(3_000).replace('"p2999"', '7'), {}],
      [playlists(3_000).slice(0, -3), {}],
    ] as const;
    for (const [text, options] of bodies) {
      const once = await outcome(async () => decodeJson(schema, text, options));
      expect(once).toEqual([expect.any(String), expect.any(String)]);
      expect(
        await outcome(() => finishInSlices(decodeJsonSteps(schema, text, options), { sliceMs: 0 })),
      ).toEqual(once);
      expect(await outcome(async () => finishSteps(decodeJsonSteps(schema, text, options)))).toEqual(once);
    }
  });
});

describe('decoding a long JSON list', () => {
  test('gives the tree of the same document given already parsed', () => {
    const text = playlists(2_000); // far longer than one piece of the text
    expect(encodeJson(decodeJson(schema, text))).toBe(encodeJson(decodeJson(schema, JSON.parse(text))));
  });

  test('reads a long array of blanks as no entries', () => {
    const text = `{"example-jukebox:jukebox":{"playlist":[${' '.repeat(100_000)}],"library":{}}}`;
    const jukebox = [...decodeJson(schema, text).children.values()][0]![0]!;
    expect([...jukebox.children!.keys()].map((s) => s.name)).toEqual(['library']);
  });

  test('refuses a duplicate key in an entry read late in the list', () => {
    const entries = Array.from({ length: 2_000 }, (_, i) => `{"name":"p${i}"}`);
    entries.push('{"name":"p7"}');
    const text = `{"example-jukebox:jukebox":{"playlist":[${entries.join(',')}]}}`;
    const error = (() => {
      try {
        decodeJson(schema, text);
      } catch (e) {
        return e as CodecError;
      }
    })();
    expect(error?.code).toBe('DATA_EXISTS');
  });
});
