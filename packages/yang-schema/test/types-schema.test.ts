import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkValue,
  compileSchema,
  mergeFeatures,
  parseModule,
  type SchemaTree,
  type YangType,
} from '../src/index';

// Types as the compiler builds them from real modules, checked end to end.
const corpus = path.resolve(__dirname, '../../../yang/corpus/ietf');
const corpusModule = (file: string) => parseModule(readFileSync(path.join(corpus, file), 'utf8'), { file });

const EXAMPLE = `
module example-types {
  yang-version 1.1;
  namespace "urn:example:types";
  prefix ex;
  import ietf-inet-types { prefix inet; }

  identity transport;
  identity tcp { base transport; }
  identity udp { base transport; }

  typedef percent {
    type uint8 {
      range "0..100" { error-message "a percentage is 0..100"; error-app-tag "percent-range"; }
    }
  }
  typedef small-percent { type percent { range "min..10"; } }
  typedef lower-name {
    type string { length "1..8"; pattern '[a-z]+' { error-app-tag "lowercase"; } }
  }
  typedef short-lower-name {
    type lower-name {
      length "2..3";
      pattern 'x.*' { modifier invert-match; error-app-tag "no-x"; }
    }
  }

  container settings {
    leaf load { type percent; }
    leaf low-load { type small-percent; }
    leaf name { type short-lower-name; }
    leaf host { type inet:host; }
    leaf port { type inet:port-number; }
    leaf protocol { type identityref { base transport; } }
    leaf gain { type decimal64 { fraction-digits 2; range "-10 .. 10.5"; } }
    leaf selected { type leafref { path "../load"; } }
    leaf mix { type union { type int8; type string; } }
  }
}`;

const tree: SchemaTree = compileSchema(
  [parseModule(EXAMPLE), corpusModule('ietf-inet-types@2013-07-15.yang')],
  {
    implemented: ['example-types'],
  },
);
const typeOf = (leaf: string): YangType => {
  const type = tree.find(`/example-types:settings/${leaf}`)?.type;
  if (!type) throw new Error(`no type for ${leaf}`);
  return type;
};

describe('types compiled from modules', () => {
  test('a typedef keeps its name and range with error-message and error-app-tag', () => {
    expect(checkValue(typeOf('load'), '101')).toMatchObject({
      ok: false,
      errorMessage: 'a percentage is 0..100',
      errorAppTag: 'percent-range',
      message: expect.stringContaining('type example-types:percent (uint8)'),
    });
  });

  test('a derived typedef narrows the range, min meaning the inherited lower bound', () => {
    expect(typeOf('low-load').range?.intervals).toEqual([{ min: 0n, max: 10n }]);
    expect(checkValue(typeOf('low-load'), '11').ok).toBe(false);
    expect(checkValue(typeOf('low-load'), '010')).toMatchObject({ ok: true, canonical: '10' });
  });

  test('a derived type names every typedef of its chain, outermost first', () => {
    expect(typeOf('low-load').derivedFrom).toEqual(['example-types:small-percent', 'example-types:percent']);
    expect(typeOf('load').derivedFrom).toEqual(['example-types:percent']);
  });

  test('patterns along the typedef chain are ANDed and the derived length applies', () => {
    const name = typeOf('name');
    expect(checkValue(name, 'abc').ok).toBe(true);
    expect(checkValue(name, 'ABC')).toMatchObject({ ok: false, errorAppTag: 'lowercase' });
    expect(checkValue(name, 'xab')).toMatchObject({ ok: false, errorAppTag: 'no-x' });
    expect(checkValue(name, 'abcd').ok).toBe(false);
  });

  test('inet:host picks the union member that matches, in order', () => {
    const host = typeOf('host');
    expect(checkValue(host, '192.0.2.1')).toMatchObject({
      ok: true,
      member: { name: 'ietf-inet-types:ipv4-address' },
    });
    expect(checkValue(host, '2001:db8::1')).toMatchObject({
      member: { name: 'ietf-inet-types:ipv6-address' },
    });
    expect(checkValue(host, 'example.com')).toMatchObject({
      member: { name: 'ietf-inet-types:domain-name' },
    });
    expect(checkValue(host, 'not a host!').ok).toBe(false);
  });

  test('inet:port-number is a ranged uint16', () => {
    expect(checkValue(typeOf('port'), '65535').ok).toBe(true);
    expect(checkValue(typeOf('port'), '65536').ok).toBe(false);
  });

  test('an identityref resolves through the schema tree context', () => {
    const context = tree.valueContext(new Map([['ex', 'example-types']]));
    expect(checkValue(typeOf('protocol'), 'ex:tcp', context)).toMatchObject({
      ok: true,
      identity: 'example-types:tcp',
    });
    expect(checkValue(typeOf('protocol'), 'ex:transport', context).ok).toBe(false);
    expect(checkValue(typeOf('protocol'), 'ex:sctp', context).ok).toBe(false);
  });

  test('an identity whose feature is disabled is refused as such, naming the if-feature', () => {
    const text = `module feat { yang-version 1.1; namespace "urn:feat"; prefix f;
      feature fast; identity speed; identity quick { base speed; if-feature fast; }
      leaf s { type identityref { base speed; } } }`;
    const off = compileSchema([parseModule(text)], { features: { feat: [] } });
    const type = off.find('/feat:s')!.type!;
    const r = checkValue(type, 'feat:quick', off.valueContext());
    expect(r.ok ? '' : r.message).toBe(
      '"feat:quick": identity feat:quick is unavailable, feature disabled (if-feature "fast")',
    );
    expect(off.disabledIdentity('feat:quick')).toBe('fast');
    expect(checkValue(type, 'feat:nope', off.valueContext())).toMatchObject({ ok: false });
    const on = compileSchema([parseModule(text)]);
    expect(checkValue(on.find('/feat:s')!.type!, 'feat:quick', on.valueContext()).ok).toBe(true);
    expect(on.disabledIdentity('feat:quick')).toBeUndefined();
  });

  test('a decimal64 range written with integer and decimal bounds', () => {
    expect(checkValue(typeOf('gain'), '10.50')).toMatchObject({ ok: true, canonical: '10.5' });
    expect(checkValue(typeOf('gain'), '10.51').ok).toBe(false);
    expect(checkValue(typeOf('gain'), '-10')).toMatchObject({ ok: true, canonical: '-10.0' });
  });

  test('a leafref checks values against its target type', () => {
    const context = tree.valueContext();
    expect(checkValue(typeOf('selected'), '+50', context)).toMatchObject({ ok: true, canonical: '50' });
    expect(checkValue(typeOf('selected'), '150', context)).toMatchObject({
      ok: false,
      errorAppTag: 'percent-range',
    });
  });

  test('union { int8; string } takes int8 for "12" and string for "x"', () => {
    expect(checkValue(typeOf('mix'), '12')).toMatchObject({ member: { base: 'int8' } });
    expect(checkValue(typeOf('mix'), 'x')).toMatchObject({ member: { base: 'string' } });
  });
});

const YANG_TYPES =
  `counter32 zero-based-counter32 counter64 zero-based-counter64 gauge32 gauge64 object-identifier
  object-identifier-128 yang-identifier date-and-time timeticks timestamp phys-address mac-address xpath1.0
  hex-string uuid dotted-quad`.split(/\s+/);
const INET_TYPES = `ip-version dscp ipv6-flow-label port-number as-number ip-address ipv4-address ipv6-address
  ip-address-no-zone ipv4-address-no-zone ipv6-address-no-zone ip-prefix ipv4-prefix ipv6-prefix domain-name
  host uri`.split(/\s+/);

const typedefTree = compileSchema(
  [
    parseModule(`module all-typedefs {
      namespace "urn:example:all"; prefix all;
      import ietf-yang-types { prefix yang; }
      import ietf-inet-types { prefix inet; }
      ${YANG_TYPES.map((t) => `leaf ${t} { type yang:${t}; }`).join('\n')}
      ${INET_TYPES.map((t) => `leaf inet-${t} { type inet:${t}; }`).join('\n')}
    }`),
    corpusModule('ietf-yang-types@2013-07-15.yang'),
    corpusModule('ietf-inet-types@2013-07-15.yang'),
  ],
  { implemented: ['all-typedefs'] },
);
const typedefLeaf = (name: string): YangType => typedefTree.find(`/all-typedefs:${name}`)!.type!;

describe('ietf-yang-types and ietf-inet-types typedefs', () => {
  test.each([
    ['date-and-time', '2026-11-22T03:04:05Z', true],
    ['date-and-time', '2026-11-22T03:04:05.123+01:00', true],
    ['date-and-time', '2026-11-22 03:04:05Z', false],
    ['mac-address', '00:1a:2B:3c:4d:5e', true],
    ['mac-address', '00-1a-2b-3c-4d-5e', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567e89b12d3a456426614174000', false],
    ['dotted-quad', '10.0.0.1', true],
    ['dotted-quad', '10.0.0.256', false],
    ['object-identifier', '1.3.6.1.2.1', true],
    ['object-identifier', '3.1', false],
    ['hex-string', '0a:ff', true],
    ['hex-string', '0a:f', false],
    ['yang-identifier', 'interfaces', true],
    ['yang-identifier', 'xmlfoo', false],
    ['counter64', '18446744073709551615', true],
    ['gauge32', '4294967296', false],
    ['inet-dscp', '63', true],
    ['inet-dscp', '64', false],
    ['inet-ip-version', 'ipv6', true],
    ['inet-ip-prefix', '2001:db8::/32', true],
    ['inet-ip-prefix', '192.0.2.0/24', true],
    ['inet-ipv4-address-no-zone', '192.0.2.1%1', false],
    ['inet-as-number', '4294967295', true],
    ['inet-uri', 'https://example.com/a?b', true],
  ] as const)('%s accepts %j: %s', (leaf, value, ok) => {
    expect(checkValue(typedefLeaf(leaf), value).ok).toBe(ok);
  });

  test('no typedef throws on arbitrary text, and accepted values have a stable canonical form', () => {
    const types = [...YANG_TYPES, ...INET_TYPES.map((t) => `inet-${t}`)].map(typedefLeaf);
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.string({ unit: 'binary', maxLength: 40 }), (type, text) => {
        const first = checkValue(type, text);
        if (first.ok)
          expect(checkValue(type, first.canonical)).toMatchObject({ ok: true, canonical: first.canonical });
      }),
      { numRuns: 400 },
    );
  });
});

describe('mergeFeatures', () => {
  test('unites the features per module, * winning', () => {
    expect(mergeFeatures({ a: ['x'], b: '*' }, { a: ['y', 'x'], b: ['z'], c: [] }, undefined)).toEqual({
      a: ['x', 'y'],
      b: '*',
      c: [],
    });
  });
});
