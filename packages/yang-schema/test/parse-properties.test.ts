import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileSchema, parseModule, YangSchemaError } from '../src/index';

const head = 'module m { yang-version 1.1; namespace "urn:m"; prefix m; ';

function onlyOwnErrors(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (e) {
    return YangSchemaError.isInstance(e);
  }
}

const token = fc.constantFrom(
  'container',
  'leaf',
  'list',
  'leaf-list',
  'choice',
  'case',
  'uses',
  'grouping',
  'typedef',
  'type',
  'key',
  'augment',
  'deviation',
  'deviate',
  'refine',
  'if-feature',
  'feature',
  'identity',
  'base',
  'string',
  'int8',
  'union',
  'leafref',
  'path',
  'range',
  'length',
  'pattern',
  'enumeration',
  'enum',
  'm:x',
  '"a b"',
  "'q'",
  '"/m:a/m:b"',
  '"../x"',
  '"1..10"',
  'a',
  'b',
  '{',
  '}',
  ';',
  '+',
  '"',
  "'",
  '/*',
  '*/',
  '//',
  '\n',
  ' ',
  'rpc',
  'input',
  'output',
  'action',
  'notification',
  'mandatory',
  'true',
  'default',
  'config',
  'false',
);

describe('parser and compiler safety', () => {
  test('parseModule throws only its own errors on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => onlyOwnErrors(() => parseModule(s))));
  });

  test('parseModule throws only its own errors on YANG-like token soup', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) =>
        onlyOwnErrors(() => parseModule(`${head}${tokens.join(' ')} }`)),
      ),
    );
  });

  test('compileSchema throws only its own errors on any module that parses', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) =>
        onlyOwnErrors(() => compileSchema([parseModule(`${head}${tokens.join(' ')} }`)])),
      ),
      { numRuns: 300 },
    );
  });

  test('compileSchema throws only its own errors on well-formed random schemas', () => {
    const name = fc.constantFrom('a', 'b', 'c');
    const leaf = fc
      .tuple(name, fc.constantFrom('string', 'int8', 't', 'm:t', 'leafref { path "../a"; }', 'x:t'))
      .map(([n, t]) => `leaf ${n} { type ${t.includes('{') ? t : `${t};`} }`);
    const stmt: fc.Arbitrary<string> = fc.letrec<{ s: string }>((tie) => ({
      s: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc
          .tuple(name, fc.array(tie('s'), { maxLength: 3 }))
          .map(([n, c]) => `container ${n} { ${c.join(' ')} }`),
        fc
          .tuple(name, fc.array(tie('s'), { maxLength: 3 }))
          .map(([n, c]) => `list ${n} { key a; ${c.join(' ')} }`),
        fc
          .tuple(name, fc.array(tie('s'), { maxLength: 3 }))
          .map(([n, c]) => `choice ${n} { ${c.join(' ')} }`),
        fc
          .tuple(name, fc.array(tie('s'), { maxLength: 3 }))
          .map(([n, c]) => `grouping g${n} { ${c.join(' ')} }`),
        name.map((n) => `uses g${n};`),
        fc.tuple(name, name).map(([a, b]) => `augment "/m:${a}" { leaf ${b} { type string; } }`),
        fc.constant('typedef t { type t; }'),
      ),
    })).s;
    fc.assert(
      fc.property(fc.array(stmt, { maxLength: 6 }), (body) =>
        onlyOwnErrors(() => compileSchema([parseModule(`${head}${body.join('\n')} }`)])),
      ),
      { numRuns: 300 },
    );
  });

  test('a single-quoted argument comes back exactly as written', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }).filter((s) => !s.includes("'")),
        (s) => {
          const m = parseModule(`${head}description '${s}'; }`);
          expect(m.statement.substatements[3]?.argument).toBe(s);
        },
      ),
    );
  });

  test('a double-quoted single-line argument decodes its escapes back to the original', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const quoted = s
          .replace(/\\/g, '\\\\')
          .replace(/"/g, '\\"')
          .replace(/\n/g, '\\n')
          .replace(/\t/g, '\\t');
        fc.pre(!quoted.includes('\r'));
        const m = parseModule(`${head}description "${quoted}"; }`);
        expect(m.statement.substatements[3]?.argument).toBe(s);
      }),
    );
  });
});
