import { describe, expect, test } from 'vitest';
import {
  type BuiltinTypeName,
  checkValue,
  createPattern,
  parseLength,
  parseRange,
  type ValueContext,
  type YangType,
} from '../src/types/index';

const builtin = (base: BuiltinTypeName, extra: Partial<YangType> = {}): YangType => ({
  base,
  name: base,
  ...extra,
});

/** [type, lexical value, canonical form or null when invalid] */
type Row = readonly [YangType, string, string | null];

const dec2 = builtin('decimal64', { fractionDigits: 2 });
const dec1 = builtin('decimal64', { fractionDigits: 1 });
const dec18 = builtin('decimal64', { fractionDigits: 18 });
const color = builtin('enumeration', {
  enums: [
    { name: 'red', value: 0 },
    { name: 'green', value: 1 },
  ],
});
const flags = builtin('bits', {
  bits: [
    { name: 'a', position: 0 },
    { name: 'b', position: 1 },
    { name: 'c', position: 5 },
  ],
});

const rows: Record<string, Row[]> = {
  int8: [
    [builtin('int8'), '0', '0'],
    [builtin('int8'), '-128', '-128'],
    [builtin('int8'), '127', '127'],
    [builtin('int8'), '+12', '12'],
    [builtin('int8'), '007', '7'],
    [builtin('int8'), '-0', '0'],
    [builtin('int8'), '128', null],
    [builtin('int8'), '-129', null],
    [builtin('int8'), '0x10', null],
    [builtin('int8'), '1.0', null],
    [builtin('int8'), ' 1', null],
    [builtin('int8'), '', null],
    [builtin('int8'), '+', null],
  ],
  'int16/int32/int64': [
    [builtin('int16'), '-32768', '-32768'],
    [builtin('int16'), '32768', null],
    [builtin('int32'), '2147483647', '2147483647'],
    [builtin('int32'), '-2147483649', null],
    [builtin('int64'), '-9223372036854775808', '-9223372036854775808'],
    [builtin('int64'), '9223372036854775808', null],
    [builtin('int64'), '1'.repeat(70), null],
  ],
  'uint8/uint16/uint32/uint64': [
    [builtin('uint8'), '255', '255'],
    [builtin('uint8'), '256', null],
    [builtin('uint8'), '-1', null],
    [builtin('uint8'), '-0', '0'],
    [builtin('uint16'), '65535', '65535'],
    [builtin('uint32'), '4294967296', null],
    [builtin('uint64'), '18446744073709551615', '18446744073709551615'],
    [builtin('uint64'), '18446744073709551616', null],
  ],
  decimal64: [
    [dec2, '1.5', '1.5'],
    [dec2, '1.50', '1.5'],
    [dec2, '1.500', '1.5'],
    [dec2, '+01', '1.0'],
    [dec2, '0', '0.0'],
    [dec2, '-0.0', '0.0'],
    [dec2, '-0.05', '-0.05'],
    [dec2, '92233720368547758.07', '92233720368547758.07'],
    [dec2, '-92233720368547758.08', '-92233720368547758.08'],
    [dec2, '92233720368547758.08', null],
    [dec2, '1.234', null],
    [dec2, '1.', null],
    [dec2, '.5', null],
    [dec2, '1e3', null],
    [dec2, '', null],
    [dec1, '922337203685477580.7', '922337203685477580.7'],
    [dec18, '9.223372036854775807', '9.223372036854775807'],
    [dec18, '-9.223372036854775808', '-9.223372036854775808'],
    [dec18, '9.223372036854775808', null],
    [builtin('decimal64'), '1.0', null],
  ],
  string: [
    [builtin('string'), '', ''],
    [builtin('string'), ' any text\twith\r\nbreaks ', ' any text\twith\r\nbreaks '],
    [builtin('string'), '\u{1F600}', '\u{1F600}'],
    [builtin('string'), 'a\u0000b', null],
    [builtin('string'), 'a\u0007', null],
    [builtin('string'), '\ud800', null],
    [builtin('string'), 'x\udc00', null],
    [builtin('string'), '\ufffe', null],
  ],
  boolean: [
    [builtin('boolean'), 'true', 'true'],
    [builtin('boolean'), 'false', 'false'],
    [builtin('boolean'), 'True', null],
    [builtin('boolean'), '1', null],
    [builtin('boolean'), ' true', null],
  ],
  empty: [
    [builtin('empty'), '', ''],
    [builtin('empty'), ' ', null],
    [builtin('empty'), 'x', null],
  ],
  enumeration: [
    [color, 'red', 'red'],
    [color, 'green', 'green'],
    [color, 'blue', null],
    [color, 'Red', null],
    [color, '0', null],
    [builtin('enumeration'), 'red', null],
  ],
  bits: [
    [flags, '', ''],
    [flags, 'a', 'a'],
    [flags, 'c a', 'a c'],
    [flags, '  c\tb\na ', 'a b c'],
    [flags, 'a a', null],
    [flags, 'd', null],
    [flags, 'A', null],
  ],
  binary: [
    [builtin('binary'), '', ''],
    [builtin('binary'), 'AQID', 'AQID'],
    [builtin('binary'), 'AQ==', 'AQ=='],
    [builtin('binary'), 'AQI=', 'AQI='],
    [builtin('binary'), 'AQ\nID', 'AQID'],
    [builtin('binary'), 'AR==', 'AQ=='],
    [builtin('binary'), 'AQ', null],
    [builtin('binary'), 'A===', null],
    [builtin('binary'), 'AQ=I', null],
    [builtin('binary'), 'AQ-_', null],
    [builtin('binary'), '====', null],
  ],
  identityref: [
    [builtin('identityref'), 'ianaift:ethernetCsmacd', 'ianaift:ethernetCsmacd'],
    [builtin('identityref'), 'ethernet', 'ethernet'],
    [builtin('identityref'), 'a:b:c', null],
    [builtin('identityref'), '1abc', null],
    [builtin('identityref'), '', null],
    [builtin('identityref'), ':x', null],
  ],
  'instance-identifier': [
    [builtin('instance-identifier'), '/ex:system/ex:services/ex:ssh', '/ex:system/ex:services/ex:ssh'],
    [
      builtin('instance-identifier'),
      "/ex:system/ex:user[ex:name='fred']",
      "/ex:system/ex:user[ex:name='fred']",
    ],
    [
      builtin('instance-identifier'),
      '/ex:system/ex:server[ex:ip="192.0.2.1"][ex:port="80"]',
      '/ex:system/ex:server[ex:ip="192.0.2.1"][ex:port="80"]',
    ],
    [
      builtin('instance-identifier'),
      "/ex:system/ex:services/ex:ssh/ex:cipher[.='blowfish-cbc']",
      "/ex:system/ex:services/ex:ssh/ex:cipher[.='blowfish-cbc']",
    ],
    [builtin('instance-identifier'), '/ex:stats/ex:port[3]', '/ex:stats/ex:port[3]'],
    [
      builtin('instance-identifier'),
      '/ietf-interfaces:interfaces/interface[name = "eth0"]',
      '/ietf-interfaces:interfaces/interface[name = "eth0"]',
    ],
    [builtin('instance-identifier'), '', null],
    [builtin('instance-identifier'), 'ex:system', null],
    [builtin('instance-identifier'), '/ex:stats/ex:port[0]', null],
    [builtin('instance-identifier'), "/ex:user[ex:name='fred'", null],
    [builtin('instance-identifier'), '/ex:user[ex:name=fred]', null],
    [builtin('instance-identifier'), '/ex:a/', null],
    [builtin('instance-identifier'), "/ex:a[1][ex:k='v']", null],
  ],
};

describe.each(Object.entries(rows))('checkValue on %s', (_name, table) => {
  test.each(table.map(([type, text, canonical]) => ({ type, text, canonical, base: type.base })))(
    '$base $text -> $canonical',
    ({ type, text, canonical }) => {
      const result = checkValue(type, text);
      if (canonical === null) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.errorTag).toBe('invalid-value');
      } else {
        expect(result).toMatchObject({ ok: true, canonical });
      }
    },
  );
});

describe('checkValue restrictions', () => {
  const percent: YangType = {
    base: 'uint8',
    name: 'ex:percent',
    range: parseRange('0..100', 'uint8', undefined, undefined, {
      errorMessage: 'percent must be 0..100',
      errorAppTag: 'percent-range',
    }),
  };

  test('accepts a value inside the range', () => {
    expect(checkValue(percent, '100')).toEqual({ ok: true, canonical: '100' });
  });

  test('names the range and the type when a value is outside the range', () => {
    const r = checkValue(percent, '101');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('"101" does not satisfy the range "0..100" of type ex:percent (uint8)');
  });

  test('carries the range error-message and error-app-tag', () => {
    expect(checkValue(percent, '101')).toMatchObject({
      ok: false,
      errorTag: 'invalid-value',
      errorMessage: 'percent must be 0..100',
      errorAppTag: 'percent-range',
    });
  });

  test('checks a decimal64 range in scaled units', () => {
    const t = builtin('decimal64', {
      fractionDigits: 2,
      range: parseRange('-1.5..1.5', 'decimal64', 2, undefined),
    });
    expect(checkValue(t, '1.50').ok).toBe(true);
    expect(checkValue(t, '1.51').ok).toBe(false);
  });

  test('counts string length in code points, not UTF-16 units', () => {
    const t = builtin('string', { length: parseLength('2', undefined) });
    expect(checkValue(t, '\u{1F600}\u{1F600}').ok).toBe(true);
    expect(checkValue(t, '\u{1F600}').ok).toBe(false);
  });

  test('carries the length error-app-tag', () => {
    const t = builtin('string', { length: parseLength('1..3', undefined, { errorAppTag: 'too-long' }) });
    expect(checkValue(t, 'abcd')).toMatchObject({ ok: false, errorAppTag: 'too-long' });
  });

  test('counts binary length in octets', () => {
    const t = builtin('binary', { length: parseLength('3', undefined) });
    expect(checkValue(t, 'AQID').ok).toBe(true);
    expect(checkValue(t, 'AQI=').ok).toBe(false);
  });

  test('requires every pattern of the chain to match', () => {
    const t = builtin('string', { patterns: [createPattern('[a-z]+'), createPattern('.{2,3}')] });
    expect(checkValue(t, 'abc').ok).toBe(true);
    expect(checkValue(t, 'abcd').ok).toBe(false);
    expect(checkValue(t, 'A').ok).toBe(false);
  });

  test('rejects a value that matches an invert-match pattern', () => {
    const t = builtin('string', { patterns: [createPattern('[xX][mM][lL].*', true)] });
    expect(checkValue(t, 'name').ok).toBe(true);
    const r = checkValue(t, 'xml-name');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('matches the inverted pattern');
  });

  test('names the pattern and carries its error-message when it does not match', () => {
    const t: YangType = {
      base: 'string',
      name: 'ex:lower',
      patterns: [createPattern('[a-z]+', false, { errorMessage: 'lowercase letters only' })],
    };
    expect(checkValue(t, 'ABC')).toEqual({
      ok: false,
      errorTag: 'invalid-value',
      message: '"ABC" does not match the pattern "[a-z]+" of type ex:lower (string)',
      errorMessage: 'lowercase letters only',
    });
  });

  test('checks length before patterns', () => {
    const t = builtin('string', {
      length: parseLength('1', undefined, { errorAppTag: 'len' }),
      patterns: [createPattern('b', false, { errorAppTag: 'pat' })],
    });
    expect(checkValue(t, 'aa')).toMatchObject({ ok: false, errorAppTag: 'len' });
  });
});

describe('checkValue on unions', () => {
  const int8 = builtin('int8');
  const str = builtin('string');
  const union = builtin('union', { members: [int8, str] });

  test('picks the first member that accepts the value', () => {
    expect(checkValue(union, '12')).toEqual({ ok: true, canonical: '12', member: int8 });
  });

  test('falls through to a later member', () => {
    expect(checkValue(union, 'x')).toEqual({ ok: true, canonical: 'x', member: str });
  });

  test('canonicalizes with the member that matched', () => {
    expect(checkValue(union, '+012')).toMatchObject({ canonical: '12', member: int8 });
  });

  test('uses a later member when the value is outside the first member range', () => {
    expect(checkValue(union, '300')).toMatchObject({ ok: true, canonical: '300', member: str });
  });

  test('reports the innermost member of a nested union', () => {
    const inner = builtin('union', { members: [builtin('boolean'), int8] });
    expect(checkValue(builtin('union', { members: [inner, str] }), '5')).toMatchObject({ member: int8 });
  });

  test('lists every member failure when none matches', () => {
    const r = checkValue(builtin('union', { members: [int8, builtin('boolean')] }), 'x');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/matches no member of type union: .*int8.*; .*true/);
  });

  test('rejects every value of a union without members', () => {
    expect(checkValue(builtin('union'), 'x').ok).toBe(false);
  });
});

describe('checkValue on identityref with a context', () => {
  const type = builtin('identityref', { identityBases: ['iana-if-type:iana-interface-type'] });
  const context: ValueContext = {
    resolveIdentity: (v) => (v.startsWith('ianaift:') ? `iana-if-type:${v.slice(8)}` : undefined),
    isDerivedFrom: (identity, base) =>
      base === 'iana-if-type:iana-interface-type' && identity === 'iana-if-type:ethernetCsmacd',
  };

  test('returns the qualified identity of a derived identity', () => {
    expect(checkValue(type, 'ianaift:ethernetCsmacd', context)).toEqual({
      ok: true,
      canonical: 'ianaift:ethernetCsmacd',
      identity: 'iana-if-type:ethernetCsmacd',
    });
  });

  test('rejects an unknown identity', () => {
    const r = checkValue(type, 'x:ethernetCsmacd', context);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('not a known identity');
  });

  test('rejects an identity not derived from the base', () => {
    const r = checkValue(type, 'ianaift:other', context);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('is not derived from "iana-if-type:iana-interface-type"');
  });

  test('checks only the form without a resolver', () => {
    expect(checkValue(type, 'x:unknown').ok).toBe(true);
  });
});

describe('checkValue on leafref', () => {
  const target = { id: 'interface-name-leaf' };
  const targetType = builtin('string', {
    length: parseLength('1..4', undefined, { errorAppTag: 'name-len' }),
  });
  const leafref = builtin('leafref', { path: '/if:interfaces/if:interface/if:name', leafrefTarget: target });
  const context: ValueContext = { typeOf: (t) => (t === target ? targetType : undefined) };

  test('checks the value against the target type', () => {
    expect(checkValue(leafref, 'eth0', context)).toEqual({ ok: true, canonical: 'eth0' });
  });

  test('reports the target type failure with the leafref path', () => {
    const r = checkValue(leafref, 'eth00', context);
    expect(r).toMatchObject({ ok: false, errorAppTag: 'name-len' });
    if (!r.ok) expect(r.message).toMatch(/^type leafref path "\/if:interfaces\/if:interface\/if:name": /);
  });

  test('canonicalizes with the target type', () => {
    const intRef = builtin('leafref', { path: '../x', leafrefTarget: target });
    expect(checkValue(intRef, '+5', { typeOf: () => builtin('int32') })).toMatchObject({ canonical: '5' });
  });

  test('accepts any legal string without a resolved target', () => {
    expect(checkValue(builtin('leafref', { path: '../x' }), 'anything')).toMatchObject({ ok: true });
    expect(checkValue(builtin('leafref', { path: '../x' }), '\u0000').ok).toBe(false);
  });

  test('stops on a leafref cycle instead of recursing forever', () => {
    const self: YangType = builtin('leafref', { path: '.', leafrefTarget: target });
    const r = checkValue(self, 'x', { typeOf: () => self });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('deeper than');
  });
});

test('checkValue rejects a type with an unknown base instead of throwing', () => {
  const r = checkValue({ base: 'float' as BuiltinTypeName, name: 'float' }, '1');
  expect(r).toMatchObject({ ok: false, errorTag: 'invalid-value' });
});

describe('checkValue failure messages name the rule that failed', () => {
  test.each(
    (
      [
        [
          builtin('int8'),
          '0x1F',
          /not a valid type int8 value: expected an optional sign and decimal digits/,
        ],
        [builtin('uint16'), '70000', /outside the uint16 value space 0..65535/],
        [dec2, '1.234', /at most 2 fraction digits/],
        [builtin('decimal64', { fractionDigits: 2 }), '1e5', /decimal number/],
        [builtin('boolean'), 'yes', /expected "true" or "false"/],
        [builtin('empty'), 'x', /takes no value/],
        [color, 'blue', /"blue" is not an enum of type enumeration \(expected one of: red, green\)/],
        [flags, 'z', /"z" is not a bit of type bits/],
        [flags, 'a a', /bit "a" is set more than once/],
        [builtin('binary'), 'AQ', /not base64 \(RFC 4648 section 4, padded\)/],
        [builtin('string'), 'a\u0001', /illegal character U\+0001 at offset 1/],
        [builtin('identityref'), '1x', /expected "prefix:identity" or "identity"/],
        [builtin('instance-identifier'), 'x', /instance-identifier: expected "\/" at offset 0/],
      ] as const
    ).map(([type, text, reason]) => ({ base: type.base, type, text, reason })),
  )('$base rejects $text with a message naming the rule', ({ type, text, reason }) => {
    const r = checkValue(type, text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(reason);
  });
});

test('a failure serializes and spreads with its message like a plain object', () => {
  const r = checkValue(builtin('boolean'), 'yes');
  const expected = 'yes';
  expect(JSON.parse(JSON.stringify(r)).message).toContain(expected);
  expect({ ...r }).toMatchObject({ ok: false, message: expect.stringContaining(expected) });
  expect(Object.keys(r)).toContain('message');
});
