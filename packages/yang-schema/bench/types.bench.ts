import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bench, describe } from 'vitest';
import { checkValue, compileSchema, parseModule, translateXsdRegex, type YangType } from '../src/index';
import { createPattern, parseRange } from '../src/types/index';

// Each group pairs checkValue with the bare operation it is built on, so vitest reports the ratio.

const IPV4 =
  '(([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])\\.){3}' +
  '([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])(%[\\p{N}\\p{L}]+)?';
const ipv4: YangType = {
  base: 'string',
  name: 'ietf-inet-types:ipv4-address',
  patterns: [createPattern(IPV4)],
};
const ipv4Regex = translateXsdRegex(IPV4);
const addresses = ['192.0.2.1', '10.0.0.255', '172.16.254.1%eth0', '256.1.1.1'];

describe('string with the ietf-inet-types ipv4-address pattern', () => {
  let i = 0;
  bench('baseline: RegExp.test of the translated pattern', () => {
    ipv4Regex.test(addresses[i++ & 3]!);
  });
  bench('checkValue', () => {
    checkValue(ipv4, addresses[i++ & 3]!);
  });
});

const int32: YangType = {
  base: 'int32',
  name: 'int32',
  range: parseRange('-1000..1000 | 5000..max', 'int32', undefined, undefined),
};
const ints = ['42', '-999', '+0017', '70000'];

describe('int32 with a range', () => {
  let i = 0;
  bench('baseline: Number() and a bounds check', () => {
    const n = Number(ints[i++ & 3]!);
    if (!(Number.isInteger(n) && n >= -2147483648 && n <= 2147483647)) throw new Error('unreachable');
  });
  bench('checkValue', () => {
    checkValue(int32, ints[i++ & 3]!);
  });
});

const dec: YangType = { base: 'decimal64', name: 'decimal64', fractionDigits: 3 };
const decimals = ['3.14', '-0.5', '100', '12.250'];

describe('decimal64 fraction-digits 3', () => {
  let i = 0;
  bench('baseline: Number() parse', () => {
    Number(decimals[i++ & 3]!);
  });
  bench('checkValue', () => {
    checkValue(dec, decimals[i++ & 3]!);
  });
});

const names = Array.from({ length: 300 }, (_, k) => `ifType${k}`);
const enumeration: YangType = {
  base: 'enumeration',
  name: 'enumeration',
  enums: names.map((name, value) => ({ name, value })),
};
const nameSet = new Set(names);
const picks = ['ifType0', 'ifType150', 'ifType299', 'unknown'];

describe('enumeration with 300 enums', () => {
  let i = 0;
  bench('baseline: Set.has', () => {
    nameSet.has(picks[i++ & 3]!);
  });
  bench('checkValue', () => {
    checkValue(enumeration, picks[i++ & 3]!);
  });
});

const union: YangType = {
  base: 'union',
  name: 'union',
  members: [
    { base: 'int8', name: 'int8' },
    { base: 'string', name: 'string' },
  ],
};
const unionValues = ['12', 'x', '-128', 'interface'];

describe('union { int8; string }', () => {
  let i = 0;
  bench('baseline: Number() then fall back to the string', () => {
    const s = unionValues[i++ & 3]!;
    const n = Number(s);
    if (Number.isNaN(n)) s.toString();
  });
  bench('checkValue', () => {
    checkValue(union, unionValues[i++ & 3]!);
  });
});

describe('compiling the ipv4-address pattern', () => {
  const translated = ipv4Regex.source;
  bench('baseline: new RegExp of the already translated source', () => {
    new RegExp(translated, 'u');
  });
  bench('translateXsdRegex', () => {
    translateXsdRegex(IPV4);
  });
});

// inet:host as the compiler builds it from ietf-inet-types: union { ip-address (union { ipv4; ipv6 }); domain-name }.
const inet = parseModule(
  readFileSync(path.resolve(__dirname, '../../../yang/corpus/ietf/ietf-inet-types@2013-07-15.yang'), 'utf8'),
);
const hostModule = parseModule(`module bench-host {
  namespace "urn:bench"; prefix b; import ietf-inet-types { prefix inet; }
  leaf host { type inet:host; }
}`);
const host = compileSchema([hostModule, inet], { implemented: ['bench-host'] }).find('/bench-host:host')!
  .type!;
const memberRegexes = (function collect(t: YangType): RegExp[] {
  return t.members ? t.members.flatMap(collect) : (t.patterns ?? []).map((p) => p.regex);
})(host);
const hosts = ['192.0.2.1', '2001:db8::1', 'www.example.com', 'bad host'];

describe('inet:host compiled from ietf-inet-types', () => {
  let i = 0;
  bench('baseline: RegExp.test of every member pattern in turn', () => {
    const h = hosts[i++ & 3]!;
    for (const re of memberRegexes) if (re.test(h)) break;
  });
  bench('checkValue', () => {
    checkValue(host, hosts[i++ & 3]!);
  });
});
