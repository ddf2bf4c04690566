import { childElement, childElements, readXmlDocument } from '@yangkit/xml';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  CodecError,
  decodeJson,
  decodeXml,
  encodeJson,
  encodeJsonChunks,
  encodeXml,
  encodeXmlChunks,
  NETCONF_NS,
} from '../src/index';
import { SHARED_YANG } from './helpers';
import { InstanceGenerator, prng } from './instance-generator';

const SETS: Record<string, string[]> = {
  'example-jukebox': ['example-jukebox'],
  'ietf-interfaces + ietf-ip': ['ietf-interfaces', 'ietf-ip', 'iana-if-type'],
  'ietf-system': ['ietf-system'],
  'ietf-routing': ['ietf-routing', 'ietf-ipv4-unicast-routing', 'ietf-ipv6-unicast-routing'],
};

const schemas = new Map<string, SchemaTree>();
beforeAll(async () => {
  for (const [name, modules] of Object.entries(SETS)) {
    schemas.set(name, await loadSchema({ paths: [SHARED_YANG], modules }));
  }
}, 60_000);

describe.each(Object.keys(SETS))('round trips of generated %s data', (name) => {
  const modules = SETS[name]!;
  const generate = (seed: number) => new InstanceGenerator(schemas.get(name)!, prng(seed)).document(modules);

  test('XML -> tree -> XML and JSON -> tree -> JSON are fixed points, and XML and JSON agree', () => {
    const schema = schemas.get(name)!;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const xml1 = encodeXml(decodeJson(schema, generate(seed)));
        const json1 = encodeJson(decodeXml(schema, xml1));
        const xml2 = encodeXml(decodeJson(schema, json1));
        expect(xml2).toBe(xml1);
        expect(encodeJson(decodeJson(schema, json1))).toBe(json1);
        expect(encodeXml(decodeXml(schema, xml1))).toBe(xml1);
      }),
      { numRuns: 150 },
    );
  });

  test('decoding elements already read gives the tree decoding their text gives', () => {
    const schema = schemas.get(name)!;
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, wrapped) => {
        const xml = encodeXml(decodeJson(schema, generate(seed)), { indent: 2 });
        // As a NETCONF reply holds it: the <data> element, or its content.
        const reply = readXmlDocument(`<rpc-reply xmlns="${NETCONF_NS}"><data>${xml}</data></rpc-reply>`);
        const data = childElement(reply, 'data')!;
        const elements = wrapped ? data : childElements(data);
        expect(encodeJson(decodeXml(schema, elements))).toBe(encodeJson(decodeXml(schema, xml)));
      }),
      { numRuns: 50 },
    );
  });

  test('XML text decoded in pieces cut anywhere gives what the whole text gives, errors included', () => {
    const schema = schemas.get(name)!;
    /** The JSON of the tree `xml` decodes to, or the error it raises. */
    const outcome = (xml: string | string[]) => {
      try {
        return encodeJson(decodeXml(schema, xml));
      } catch (e) {
        if (!CodecError.isInstance(e)) throw e;
        return [e.code, e.message];
      }
    };
    fc.assert(
      fc.property(
        fc.integer(),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.option(fc.tuple(fc.nat(), fc.string({ maxLength: 3 }))),
        (seed, cuts, damage) => {
          let xml = encodeXml(decodeJson(schema, generate(seed)), { indent: 2 });
          if (damage !== null) {
            const at = damage[0] % (xml.length + 1);
            xml = xml.slice(0, at) + damage[1] + xml.slice(at + 1);
          }
          const at = cuts.map((c) => c % (xml.length + 1)).sort((a, b) => a - b);
          const pieces = [0, ...at].map((from, k) => xml.slice(from, at[k] ?? xml.length));
          expect(outcome(pieces)).toEqual(outcome(xml));
        },
      ),
      { numRuns: 100 },
    );
  });

  test('indentation changes only whitespace', () => {
    const schema = schemas.get(name)!;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const tree = decodeJson(schema, generate(seed));
        expect(JSON.parse(encodeJson(tree, { indent: 2 }))).toEqual(JSON.parse(encodeJson(tree)));
        expect(encodeJson(decodeXml(schema, encodeXml(tree, { indent: 3 })))).toBe(encodeJson(tree));
      }),
      { numRuns: 50 },
    );
  });

  test('chunked output joins to the same text', () => {
    const schema = schemas.get(name)!;
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const tree = decodeJson(schema, generate(seed));
        expect([...encodeJsonChunks(tree)].join('')).toBe(encodeJson(tree));
        expect([...encodeXmlChunks(tree)].join('')).toBe(encodeXml(tree));
      }),
      { numRuns: 30 },
    );
  });

  test('damaged XML and JSON only ever raise CodecError', () => {
    const schema = schemas.get(name)!;
    fc.assert(
      fc.property(fc.integer(), fc.nat(), fc.nat(), fc.string({ maxLength: 4 }), (seed, at, len, insert) => {
        const tree = decodeJson(schema, generate(seed));
        for (const text of [encodeXml(tree), encodeJson(tree)]) {
          const i = at % (text.length + 1);
          const damaged = text.slice(0, i) + insert + text.slice(i + (len % 5));
          for (const decode of [decodeXml, decodeJson]) {
            try {
              decode(schema, damaged);
            } catch (e) {
              if (!CodecError.isInstance(e)) throw e;
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
