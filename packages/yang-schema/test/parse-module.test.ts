import { describe, expect, test } from 'vitest';
import { parseModule, YangSyntaxError } from '../src/index';

const wrap = (body: string, version = '1.1') =>
  `module m {\n  yang-version ${version};\n  namespace "urn:m";\n  prefix m;\n${body}\n}\n`;

function firstArg(body: string, version?: string): string | undefined {
  const m = parseModule(wrap(body, version));
  return m.statement.substatements[3]?.argument;
}

function syntaxError(
  text: string,
  options: { maxSize?: number; maxDepth?: number; file?: string } = {},
): YangSyntaxError {
  try {
    parseModule(text, options);
  } catch (e) {
    if (e instanceof YangSyntaxError) return e;
    throw e;
  }
  throw new Error('expected a syntax error');
}

describe('parseModule header', () => {
  test('reads name, prefix, namespace, version and the newest revision', () => {
    const m = parseModule(
      wrap(
        '  revision 2020-01-01;\n  revision 2021-05-06 { description "x"; }\n  import ietf-yang-types { prefix yang; revision-date 2013-07-15; }',
      ),
    );
    expect(m).toMatchObject({
      kind: 'module',
      name: 'm',
      prefix: 'm',
      namespace: 'urn:m',
      yangVersion: '1.1',
    });
    expect(m.revision).toBe('2021-05-06');
    expect(m.imports).toEqual([
      expect.objectContaining({ module: 'ietf-yang-types', prefix: 'yang', revision: '2013-07-15' }),
    ]);
  });

  test('reads belongs-to of a submodule', () => {
    const m = parseModule('submodule s { belongs-to m { prefix m; } }');
    expect(m).toMatchObject({ kind: 'submodule', name: 's', belongsTo: 'm', prefix: 'm' });
  });

  test('keeps the file name in statement locations', () => {
    const m = parseModule(wrap('  leaf a { type string; }'), { file: 'm.yang' });
    expect(m.statement.substatements[3]?.location).toEqual({ file: 'm.yang', line: 5, column: 3 });
  });
});

describe('parseModule strings (RFC 7950 6.1.3)', () => {
  test('strips the indentation of continuation lines up to the opening quote column', () => {
    expect(firstArg('  description "first\n               second\n    third";')).toBe('first\nsecond\nthird');
  });

  test('removes trailing whitespace before a line break in double quotes', () => {
    expect(firstArg('  description "a   \n   b";')).toBe('a\nb');
  });

  test('counts a tab as eight columns when stripping indentation', () => {
    // The quote sits in column 14, so 15 columns are stripped: two tabs (16 columns) leave one space.
    expect(firstArg('  description "a\n\t\t  b";')).toBe('a\n   b');
  });

  test('turns the four escapes of double-quoted strings into characters', () => {
    expect(firstArg('  description "tab\\tnl\\nq\\"bs\\\\";')).toBe('tab\tnl\nq"bs\\');
  });

  test('rejects other backslash escapes in YANG 1.1', () => {
    expect(() => parseModule(wrap('  description "a\\d";'))).toThrow(YangSyntaxError);
  });

  test('keeps other backslash escapes verbatim in YANG 1.0', () => {
    expect(firstArg('  description "a\\d";', '1')).toBe('a\\d');
  });

  test('keeps single-quoted strings exactly as written', () => {
    expect(firstArg("  description 'a\\n\n     b  \n';")).toBe('a\\n\n     b  \n');
  });

  test('concatenates quoted strings joined by "+"', () => {
    expect(firstArg(`  description "ab" + 'c"d' +\n    "e";`)).toBe('abc"de');
  });

  test('reads unquoted arguments up to whitespace or ";"', () => {
    expect(firstArg('  leaf a { type string; default hello-world; }')).toBe('a');
  });

  test('skips line and block comments', () => {
    const m = parseModule(wrap('  // line\n  /* block\n comment */ leaf a { type string; } // tail'));
    expect(m.statement.substatements.map((s) => s.keyword)).toEqual([
      'yang-version',
      'namespace',
      'prefix',
      'leaf',
    ]);
  });
});

describe('parseModule statements', () => {
  test('keeps extension statements with their prefix and argument', () => {
    const m = parseModule(
      wrap('  import ietf-restconf { prefix rc; }\n  rc:yang-data errors { container errors; }'),
    );
    const ext = m.statement.substatements[4];
    expect(ext).toMatchObject({ prefix: 'rc', keyword: 'yang-data', argument: 'errors' });
    expect(ext?.substatements[0]?.keyword).toBe('container');
  });

  test('accepts input and output without an argument', () => {
    const m = parseModule(wrap('  rpc r { input { leaf a { type string; } } output; }'));
    expect(m.statement.substatements[3]?.substatements.map((s) => s.keyword)).toEqual(['input', 'output']);
  });
});

describe('parseModule errors', () => {
  test('locates an unknown keyword by line and column', () => {
    const e = syntaxError(wrap('  leaf a { typo string; }'), { file: 'bad.yang' });
    expect(e.location).toEqual({ file: 'bad.yang', line: 5, column: 12 });
    expect(e.message).toContain('bad.yang:5:12');
    expect(e.code).toBe('YANG_SYNTAX');
  });

  test('reports an unterminated double-quoted string where it starts', () => {
    const e = syntaxError(wrap('  description "never closed;'));
    expect(e.location).toMatchObject({ line: 5, column: 15 });
  });

  test('reports a missing closing brace at the end of input', () => {
    expect(syntaxError('module m { namespace "u"; prefix m;').detail).toContain('not closed');
  });

  test('rejects text after the module', () => {
    expect(syntaxError(`${wrap('')} leaf x;`).detail).toContain('after the end');
  });

  test('rejects a statement that needs an argument and has none', () => {
    expect(syntaxError(wrap('  leaf { type string; }')).detail).toContain('requires an argument');
  });

  test('rejects input larger than maxSize with code YANG_LIMIT', () => {
    expect(syntaxError(wrap(''), { maxSize: 10 }).code).toBe('YANG_LIMIT');
  });

  test('rejects nesting deeper than maxDepth with code YANG_LIMIT', () => {
    const deep = `${'container c { '.repeat(20)}${'}'.repeat(20)}`;
    expect(syntaxError(wrap(deep), { maxDepth: 10 }).code).toBe('YANG_LIMIT');
  });

  test('names the module in errors found inside it', () => {
    expect(syntaxError(wrap('  leaf a { typo x; }')).module).toBe('m');
  });

  test('rejects a module without a prefix', () => {
    expect(syntaxError('module m { namespace "u"; }').detail).toContain('no prefix');
  });
});
