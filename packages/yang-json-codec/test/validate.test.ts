import { compileSchema, loadSchema, parseModule, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeJson, decodeXml, validate } from '../src/index';
import { SHARED_YANG, testSchema } from './helpers';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
}, 60_000);

const entry = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  region: 'eu',
  weight: 1,
  ...extra,
});

describe('validate', () => {
  test('accepts a valid document', () => {
    const tree = decodeJson(schema, {
      'codec-types:entry': [entry(1, { label: 'a' }), entry(2, { ref: 'a' })],
    });
    expect(validate(tree)).toEqual([]);
  });

  test('reports a missing mandatory leaf with missing-element', () => {
    const tree = decodeJson(schema, { 'codec-types:entry': [{ id: 1, region: 'eu' }] });
    const [e] = validate(tree);
    expect([e?.code, e?.errorTag, e?.errorPath?.json]).toEqual([
      'MANDATORY_MISSING',
      'missing-element',
      "/codec-types:entry[region='eu'][id='1']/weight",
    ]);
    expect(e?.message).toContain('"weight"');
  });

  test('reports more entries than max-elements with too-many-elements', () => {
    const tree = decodeJson(schema, { 'codec-types:entry': [1, 2, 3, 4, 5].map((i) => entry(i)) });
    const errors = validate(tree, { complete: true });
    const e = errors.find((x) => x.code === 'TOO_MANY_ELEMENTS');
    expect([e?.errorTag, e?.errorAppTag, e?.errorPath?.json]).toEqual([
      'operation-failed',
      'too-many-elements',
      '/codec-types:entry',
    ]);
  });

  test('reports a leaf-list above max-elements', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { names: ['a', 'b', 'c', 'd'] } });
    const [e] = validate(tree);
    expect([e?.code, e?.errorPath?.json]).toEqual(['TOO_MANY_ELEMENTS', '/codec-types:settings/names']);
  });

  test('reports entries sharing a unique value with data-not-unique', () => {
    const tree = decodeJson(schema, {
      'codec-types:entry': [entry(1, { label: 'x' }), entry(2, { label: 'x' })],
    });
    const errors = validate(tree);
    expect(errors.map((e) => [e.code, e.errorAppTag])).toEqual([['UNIQUE_VIOLATION', 'data-not-unique']]);
    expect(errors[0]?.message).toContain('"label"');
  });

  test('reports a leafref without its target instance as instance-required', () => {
    const tree = decodeJson(schema, { 'codec-types:entry': [entry(1, { label: 'a', ref: 'zzz' })] });
    const [e] = validate(tree);
    expect([e?.code, e?.errorTag, e?.errorAppTag, e?.errorInfo]).toEqual([
      'DATA_MISSING',
      'data-missing',
      'instance-required',
      { 'bad-value': 'zzz' },
    ]);
    expect(e?.errorPath?.json).toBe("/codec-types:entry[region='eu'][id='1']/ref");
  });

  test('leaves a leafref alone when its target subtree is not in the document', () => {
    const tree = decodeJson(
      schema,
      { 'ietf-interfaces:interfaces': { interface: [] }, 'codec-types:types': {} },
      {},
    );
    expect(validate(tree)).toEqual([]);
  });

  test('a mandatory choice needs a case; the case found is checked, and a third case beside the first is refused', () => {
    const choices = compileSchema([
      parseModule(`module mc { yang-version 1.1; namespace "urn:mc"; prefix m;
        container c {
          choice how { mandatory true;
            leaf direct { type string; }
            case relayed { leaf via { type string; } leaf hops { type uint8; mandatory true; } }
            case other { leaf note { type string; } } } } }`),
    ]);
    const check = (c: Record<string, unknown>) =>
      validate(decodeJson(choices, { 'mc:c': c })).map((e) => [
        e.code,
        e.errorAppTag ?? e.errorTag,
        e.message,
      ]);
    expect(check({})).toEqual([
      ['MANDATORY_MISSING', 'missing-choice', 'mandatory choice "how" has no case present (/mc:c/how)'],
    ]);
    expect(check({ direct: 'x' })).toEqual([]);
    expect(check({ via: 'r' })).toEqual([
      ['MANDATORY_MISSING', 'missing-element', 'mandatory leaf "hops" is missing (/mc:c/hops)'],
    ]);
    expect(check({ via: 'r', hops: 2 })).toEqual([]);
    expect(check({ direct: 'x', note: 'n' })).toEqual([
      [
        'BAD_ELEMENT',
        'bad-element',
        'choice "how" holds nodes of two cases, "direct" and "other" (/mc:c/note)',
      ],
    ]);
  });

  test('reports nodes of two cases of one choice, from JSON and from XML', () => {
    const fromJson = decodeJson(schema, { 'codec-types:settings': { 'tcp-port': 22, 'tls-port': 6513 } });
    const fromXml = decodeXml(
      schema,
      '<settings xmlns="urn:example:codec-types"><tcp-port>22</tcp-port><tls-port>6513</tls-port></settings>',
    );
    for (const tree of [fromJson, fromXml]) {
      const [e] = validate(tree);
      expect([e?.code, e?.errorTag, e?.errorPath?.json, e?.message]).toEqual([
        'BAD_ELEMENT',
        'bad-element',
        '/codec-types:settings/tls-port',
        'choice "transport" holds nodes of two cases, "tcp" and "tls" (/codec-types:settings/tls-port)',
      ]);
    }
    expect(validate(decodeJson(schema, { 'codec-types:settings': { 'tls-port': 6513 } }))).toEqual([]);
  });

  test('reports an instance-identifier naming no instance as instance-required', () => {
    const target = "/codec-types:entry[region='eu'][id='2']/label";
    const tree = decodeJson(schema, {
      'codec-types:entry': [entry(1, { label: 'a' })],
      'codec-types:types': { target },
    });
    const [e] = validate(tree);
    expect([e?.code, e?.errorTag, e?.errorAppTag, e?.errorInfo, e?.errorPath?.json]).toEqual([
      'DATA_MISSING',
      'data-missing',
      'instance-required',
      { 'bad-value': target },
      '/codec-types:types/target',
    ]);
  });

  test('accepts an instance-identifier naming an instance, or one outside the document', () => {
    const named = decodeJson(schema, {
      'codec-types:entry': [entry(1, { label: 'a' })],
      'codec-types:types': { target: "/codec-types:entry[region='eu'][id='1']/label" },
    });
    expect(validate(named)).toEqual([]);
    const outside = decodeJson(schema, {
      'codec-types:types': { target: "/codec-types:entry[region='eu'][id='1']" },
    });
    expect(validate(outside)).toEqual([]);
  });

  test('reports a missing mandatory rpc input parameter', () => {
    const tree = decodeJson(
      schema,
      { 'codec-types:input': { count: 2 } },
      { kind: 'rpc-input', operation: 'codec-types:ping' },
    );
    const [e] = validate(tree);
    expect([e?.code, e?.errorPath?.json]).toEqual(['MANDATORY_MISSING', '/codec-types:ping/host']);
  });

  test('checks configuration leaf-lists when validating configuration', () => {
    const tree = decodeJson(schema, { 'codec-types:settings': { names: ['a', 'b', 'c', 'd'] } });
    expect(validate(tree, { config: true })).toHaveLength(1);
  });
});

describe('validate with absent non-presence containers', () => {
  test('names the implied container in the path of its missing mandatory leaf', async () => {
    const s = await loadSchema({ paths: [SHARED_YANG], modules: ['ietf-interfaces'] });
    const errors = validate(decodeJson(s, { 'ietf-interfaces:interfaces': { interface: [{ name: 'e' }] } }));
    expect(errors.map((e) => e.errorPath?.json)).toContain(
      "/ietf-interfaces:interfaces/interface[name='e']/statistics/discontinuity-time",
    );
  });
});
