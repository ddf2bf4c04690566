import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type BuiltinTypeName,
  checkValue,
  formatDecimal,
  type IntegerTypeName,
  parseDecimalLexical,
  parseInstanceIdentifier,
  parseLength,
  parseRange,
  translateXsdRegex,
  type YangType,
  YangTypeError,
} from '../src/types/index';

const INT_BOUNDS: Record<IntegerTypeName, [bigint, bigint]> = {
  int8: [-128n, 127n],
  int16: [-32768n, 32767n],
  int32: [-2147483648n, 2147483647n],
  int64: [-9223372036854775808n, 9223372036854775807n],
  uint8: [0n, 255n],
  uint16: [0n, 65535n],
  uint32: [0n, 4294967295n],
  uint64: [0n, 18446744073709551615n],
};
const intNames = Object.keys(INT_BOUNDS) as IntegerTypeName[];

/** Runs `fn` and fails the property if it throws anything but a YangTypeError. */
function onlyYangTypeError(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof YangTypeError)) throw error;
  }
}

/** Text built mostly from XSD metacharacters, so the generator reaches the translator's edge cases. */
const xsdish = fc
  .array(
    fc.oneof(
      fc.constantFrom(...'()[]{}|-^\\.?*+,0123456789aZpPI{}sSdDwWiIcC$'.split('')),
      fc.constantFrom('\\p{L}', '\\p{IsBasicLatin}', '\\P{Nd}', '-[', '{2,3}', '[^', '\\-'),
      fc.string({ unit: 'grapheme', maxLength: 2 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));

/** Valid XSD regular expressions generated from the Appendix F grammar. */
const xsdRegex = fc.letrec((tie) => ({
  // Depth stays small: nested unbounded quantifiers backtrack exponentially in any backtracking engine.
  atom: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    fc.constantFrom(
      'a',
      'b',
      '0',
      '.',
      '\\d',
      '\\s',
      '\\w',
      '\\i',
      '\\C',
      '\\p{Lu}',
      '\\P{IsGreek}',
      '\\.',
      '\\-',
    ),
    fc.constantFrom(
      '[a-z]',
      '[^0-9]',
      '[\\w-]',
      '[a-z-[aeiou]]',
      '[\\S-[\\d]]',
      '[^\\I]',
      '[+-]',
      '[\\p{N}\\p{L}]',
    ),
    tie('regExp').map((r) => `(${r})`),
  ),
  piece: fc
    .tuple(tie('atom'), fc.constantFrom('', '?', '*', '+', '{2}', '{0,3}', '{1,}'))
    .map(([a, q]) => `${a}${q}`),
  branch: fc.array(tie('piece'), { maxLength: 4 }).map((p) => p.join('')),
  regExp: fc.array(tie('branch'), { minLength: 1, maxLength: 3 }).map((b) => b.join('|')),
})).regExp as fc.Arbitrary<string>;

describe('translateXsdRegex properties', () => {
  test('throws nothing but YangTypeError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(xsdish, fc.string({ unit: 'binary', maxLength: 40 })), (source) => {
        onlyYangTypeError(() => translateXsdRegex(source));
      }),
      { numRuns: 3000 },
    );
  });

  test('never produces a RegExp that throws when used', () => {
    fc.assert(
      fc.property(xsdish, fc.string({ unit: 'binary', maxLength: 8 }), (source, input) => {
        let re: RegExp;
        try {
          re = translateXsdRegex(source);
        } catch (error) {
          if (error instanceof YangTypeError) return;
          throw error;
        }
        expect(typeof re.test(input)).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });

  test('translates every expression the XSD grammar generates', () => {
    fc.assert(
      fc.property(xsdRegex, (source) => {
        expect(translateXsdRegex(source)).toBeInstanceOf(RegExp);
      }),
      { numRuns: 300 },
    );
  });

  test('runs every expression the XSD grammar generates', () => {
    // Fewer runs: V8 compiles each expression with large Unicode property classes on first use.
    fc.assert(
      fc.property(xsdRegex, fc.string({ unit: 'binary', maxLength: 4 }), (source, input) => {
        expect(typeof translateXsdRegex(source).test(input)).toBe('boolean');
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  test('a pattern of escaped literals matches exactly its own text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (text) => {
        const escaped = Array.from(text)
          .map((c) =>
            '\\|.?*+(){}-[]^'.includes(c) ? `\\${c}` : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c,
          )
          .join('');
        const re = translateXsdRegex(escaped);
        expect(re.test(text)).toBe(true);
        expect(re.test(`${text}x`)).toBe(false);
      }),
    );
  });
});

describe('restriction parser properties', () => {
  const base = fc.constantFrom<BuiltinTypeName>(...intNames, 'decimal64');

  test('parseRange throws nothing but YangTypeError on arbitrary text', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc
        .array(fc.constantFrom('1', '-', '..', '|', ' ', 'min', 'max', '.5', '99999999999999999999'), {
          maxLength: 10,
        })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, base, fc.integer({ min: 0, max: 20 }), (t, b, fd) => {
        onlyYangTypeError(() => parseRange(t, b, fd, undefined));
      }),
      { numRuns: 2000 },
    );
  });

  test('parseLength throws nothing but YangTypeError on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (t) => {
        onlyYangTypeError(() => parseLength(t, undefined));
      }),
    );
  });

  test('parseInstanceIdentifier throws nothing but YangTypeError on arbitrary text', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc
        .array(fc.constantFrom('/', 'a', ':', '[', ']', '=', "'", '"', '.', '1', ' '), { maxLength: 20 })
        .map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        onlyYangTypeError(() => parseInstanceIdentifier(t));
      }),
      { numRuns: 2000 },
    );
  });

  test('a derived range is accepted exactly when it lies inside its parent', () => {
    const bound = fc.bigInt({ min: -50n, max: 50n });
    fc.assert(
      fc.property(bound, bound, bound, bound, (a, b, c, d) => {
        const [plo, phi] = a <= b ? [a, b] : [b, a];
        const [clo, chi] = c <= d ? [c, d] : [d, c];
        const parent = parseRange(`${plo}..${phi}`, 'int8', undefined, undefined);
        const inside = clo >= plo && chi <= phi;
        if (inside) expect(parseRange(`${clo}..${chi}`, 'int8', undefined, parent).intervals).toHaveLength(1);
        else expect(() => parseRange(`${clo}..${chi}`, 'int8', undefined, parent)).toThrow(YangTypeError);
      }),
    );
  });
});

/** A random range restriction on an integer type: ascending, disjoint intervals inside the type. */
const intRange = fc.constantFrom(...intNames).chain((name) => {
  const [lo, hi] = INT_BOUNDS[name];
  return fc
    .uniqueArray(fc.bigInt({ min: lo, max: hi }), { minLength: 2, maxLength: 6, comparator: 'SameValueZero' })
    .map((points) => {
      const sorted = [...points].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      const parts: string[] = [];
      for (let i = 0; i + 1 < sorted.length; i += 2) parts.push(`${sorted[i]}..${sorted[i + 1]}`);
      return { name, text: parts.join(' | ') };
    });
});

describe('checkValue properties', () => {
  test('accepts every integer inside a range and rejects every integer outside it', () => {
    fc.assert(
      fc.property(intRange, fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }), ({ name, text }, v) => {
        const range = parseRange(text, name, undefined, undefined);
        const type: YangType = { base: name, name, range };
        const inside = range.intervals.some((i) => v >= i.min && v <= i.max);
        expect(checkValue(type, v.toString()).ok).toBe(inside);
      }),
    );
  });

  test('accepts an integer exactly when it lies in the built-in type', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...intNames),
        fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
        (name, v) => {
          const [lo, hi] = INT_BOUNDS[name];
          expect(checkValue({ base: name, name }, v.toString()).ok).toBe(v >= lo && v <= hi);
        },
      ),
    );
  });

  const pair = (type: YangType, text: string): [YangType, string] => [type, text];

  /** A type and a lexical value of it, written in a non-canonical way where the type allows. */
  const typedValue: fc.Arbitrary<[YangType, string]> = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(...intNames),
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
        fc.nat(3),
        fc.boolean(),
      )
      .map(([name, v, zeros, plus]) => {
        const digits = '0'.repeat(zeros) + (v < 0n ? -v : v).toString();
        return pair({ base: name, name }, `${v < 0n ? '-' : plus ? '+' : ''}${digits}`);
      }),
    fc
      .tuple(
        fc.integer({ min: 1, max: 18 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        fc.nat(3),
      )
      .map(([fd, v, pad]) =>
        pair(
          { base: 'decimal64', name: 'decimal64', fractionDigits: fd },
          formatDecimal(v, fd) + '0'.repeat(pad),
        ),
      ),
    fc.string({ unit: 'binary', maxLength: 30 }).map((s) => pair({ base: 'string', name: 'string' }, s)),
    fc
      .uint8Array({ maxLength: 40 })
      .chain((bytes) =>
        fc.nat(Buffer.from(bytes).toString('base64').length).map((cut) => {
          const b64 = Buffer.from(bytes).toString('base64');
          return `${b64.slice(0, cut)}\n${b64.slice(cut)}`;
        }),
      )
      .map((s) => pair({ base: 'binary', name: 'binary' }, s)),
    fc.shuffledSubarray(['a', 'b', 'c', 'd']).map((names) =>
      pair(
        {
          base: 'bits',
          name: 'bits',
          bits: [
            { name: 'a', position: 0 },
            { name: 'b', position: 3 },
            { name: 'c', position: 7 },
            { name: 'd', position: 40 },
          ],
        },
        ` ${names.join('  ')} `,
      ),
    ),
    fc.constantFrom<[YangType, string]>(
      [{ base: 'boolean', name: 'boolean' }, 'true'],
      [{ base: 'empty', name: 'empty' }, ''],
      [
        {
          base: 'union',
          name: 'union',
          members: [
            { base: 'int8', name: 'int8' },
            { base: 'string', name: 'string' },
          ],
        },
        '+0012',
      ],
    ),
  );

  test('the canonical form is stable: canonical(canonical(x)) equals canonical(x)', () => {
    fc.assert(
      fc.property(typedValue, ([type, text]) => {
        const first = checkValue(type, text);
        if (!first.ok) return;
        const second = checkValue(type, first.canonical);
        expect(second).toMatchObject({ ok: true, canonical: first.canonical });
      }),
      { numRuns: 2000 },
    );
  });

  test('a decimal64 value survives format and parse unchanged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 18 }),
        fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
        (fd, v) => {
          expect(parseDecimalLexical(formatDecimal(v, fd), fd)).toBe(v);
        },
      ),
    );
  });

  test('never throws on any text for any built-in type', () => {
    const types: YangType[] = [
      ...intNames.map((n): YangType => ({ base: n, name: n })),
      { base: 'decimal64', name: 'decimal64', fractionDigits: 3 },
      { base: 'string', name: 'string' },
      { base: 'binary', name: 'binary' },
      { base: 'boolean', name: 'boolean' },
      { base: 'empty', name: 'empty' },
      { base: 'enumeration', name: 'enumeration', enums: [{ name: 'a', value: 0 }] },
      { base: 'bits', name: 'bits', bits: [{ name: 'a', position: 0 }] },
      { base: 'identityref', name: 'identityref' },
      { base: 'instance-identifier', name: 'instance-identifier' },
      { base: 'leafref', name: 'leafref', path: '../a' },
      {
        base: 'union',
        name: 'union',
        members: [
          { base: 'uint8', name: 'uint8' },
          { base: 'boolean', name: 'boolean' },
        ],
      },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.string({ unit: 'binary', maxLength: 40 }), (type, text) => {
        const r = checkValue(type, text);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 3000 },
    );
  });
});
