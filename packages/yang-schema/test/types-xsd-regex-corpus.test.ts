import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { translateXsdRegex } from '../src/types/index';

const corpus = path.resolve(__dirname, '../../../yang/corpus');

/** Every .yang file below `dir`. */
function yangFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return yangFiles(full);
    return e.name.endsWith('.yang') ? [full] : [];
  });
}

/** Blanks out line and block comments, leaving quoted strings alone (RFC 7950 6.1.1). */
function stripComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += c === '"' && source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (source.startsWith('//', i)) {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * The arguments of every `pattern` statement: quoted strings joined with '+' (RFC 7950 6.1.3). Double-quoted
 * strings get the escapes \n \t \" \\ replaced; other backslashes stay, as YANG 1.0 modules expect.
 */
function patternsOf(source: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;{}])pattern\s+/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    let i = re.lastIndex;
    let value = '';
    for (;;) {
      const q = source[i];
      if (q === "'") {
        const end = source.indexOf("'", i + 1);
        value += source.slice(i + 1, end);
        i = end + 1;
      } else if (q === '"') {
        let j = i + 1;
        while (source[j] !== '"') {
          if (source[j] === '\\') {
            const n = source[j + 1];
            value += n === 'n' ? '\n' : n === 't' ? '\t' : n === '"' || n === '\\' ? n : `\\${n}`;
            j += 2;
          } else {
            value += source[j++];
          }
        }
        i = j + 1;
      } else {
        break; // an unquoted argument: no YANG module in the corpus writes a pattern that way
      }
      const rest = /^\s*\+\s*/.exec(source.slice(i, i + 200));
      if (!rest) break;
      i += rest[0].length;
    }
    if (value !== '' || source[re.lastIndex] === '"' || source[re.lastIndex] === "'") out.push(value);
  }
  return out;
}

const files = ['ietf', 'openconfig', 'iana', 'ieee', 'yuma', 'libyang']
  .flatMap((d) => {
    try {
      return yangFiles(path.join(corpus, d));
    } catch {
      return [];
    }
  })
  .sort();

const patterns = new Map<string, string>();
for (const f of files) {
  for (const p of patternsOf(stripComments(readFileSync(f, 'utf8')))) {
    if (!patterns.has(p)) patterns.set(p, path.relative(corpus, f));
  }
}

describe('patterns of the IETF, IANA, IEEE and OpenConfig corpus', () => {
  test('the corpus holds a substantial number of distinct patterns', () => {
    expect(patterns.size).toBeGreaterThan(100);
  });

  test.each([...patterns].map(([p, file]) => ({ p, file })))(
    'translates the pattern from $file: $p',
    ({ p }) => {
      expect(translateXsdRegex(p)).toBeInstanceOf(RegExp);
    },
  );
});

describe('ietf-inet-types patterns (RFC 6991)', () => {
  const inet = patternsOf(
    stripComments(readFileSync(path.join(corpus, 'ietf/ietf-inet-types@2013-07-15.yang'), 'utf8')),
  );
  // The module's patterns in order: ipv4-address, ipv6-address (2), ipv4-address-no-zone,
  // ipv6-address-no-zone, ipv4-prefix, ipv6-prefix (2), domain-name.
  const all = (indexes: number[]) => {
    const regexes = indexes.map((i) => translateXsdRegex(inet[i]!));
    return (v: string) => regexes.every((r) => r.test(v));
  };
  const ipv4 = all([0]);
  const ipv6 = all([1, 2]);
  const ipv4Prefix = all([5]);
  const ipv6Prefix = all([6, 7]);
  const domain = all([8]);

  test('the module holds nine patterns', () => {
    expect(inet).toHaveLength(9);
  });

  test.each(['0.0.0.0', '192.0.2.1', '255.255.255.255', '10.1.2.3%eth0', '10.1.2.3%1'])(
    'ipv4-address accepts %s',
    (v) => expect(ipv4(v)).toBe(true),
  );

  test.each([
    '256.0.0.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4x',
    '1.2.3.4%',
    '1.2.3.4%a b',
    ' 1.2.3.4',
    '1.2.3.4\n',
  ])('ipv4-address rejects %j', (v) => expect(ipv4(v)).toBe(false));

  test.each([
    '::',
    '::1',
    '2001:db8::1',
    'fe80::1%eth0',
    '2001:db8:0:0:0:0:2:1',
    '::ffff:192.0.2.1',
    '1:2:3:4:5:6:7:8',
  ])('ipv6-address accepts %s', (v) => expect(ipv6(v)).toBe(true));

  test.each(['2001:db8::1::2', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '192.0.2.1', ':'])(
    'ipv6-address rejects %s',
    (v) => expect(ipv6(v)).toBe(false),
  );

  test.each([
    ['192.0.2.0/24', true],
    ['0.0.0.0/0', true],
    ['192.0.2.0/33', false],
    ['192.0.2.0', false],
  ] as const)('ipv4-prefix %s is %s', (v, ok) => expect(ipv4Prefix(v)).toBe(ok));

  test.each([
    ['2001:db8::/32', true],
    ['::/0', true],
    ['2001:db8::', false],
  ] as const)('ipv6-prefix %s is %s', (v, ok) => expect(ipv6Prefix(v)).toBe(ok));

  test.each([
    'example.com',
    'example.com.',
    'a',
    '.',
    'xn--bcher-kva.example',
    '_sip._tcp.example.com',
    'a-b.c',
  ])('domain-name accepts %s', (v) => expect(domain(v)).toBe(true));

  test.each(['-a.com', 'a-.com', 'a..com', '', 'a b.com', `${'a'.repeat(64)}.com`, 'exa$mple.com'])(
    'domain-name rejects %j',
    (v) => expect(domain(v)).toBe(false),
  );
});

/**
 * Samples classified by libxml2's XML Schema engine for each corpus pattern (plus a few feature patterns):
 * the translation must agree on every one. Regenerate only on purpose.
 */
const golden = JSON.parse(
  readFileSync(path.join(__dirname, 'fixtures/types-xsd-regex/libxml2-samples.json'), 'utf8'),
) as { source: string; cases: { pattern: string; accept: string[]; reject: string[] }[] };

describe(`agreement with ${golden.source}`, () => {
  test.each(golden.cases.map((c) => ({ ...c })))('classifies the samples of $pattern the same way', (c) => {
    const re = translateXsdRegex(c.pattern);
    expect(c.accept.filter((s) => !re.test(s))).toEqual([]);
    expect(c.reject.filter((s) => re.test(s))).toEqual([]);
  });
});
