import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkValue, compileSchema, parseModule, type SchemaTree, type YangType } from '../src/index';

// Types as the compiler builds them from real modules, checked end to end.
const corpus = path.resolve(__dirname, '../../../../shared/yang/corpus/ietf');
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
