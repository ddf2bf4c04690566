import { describe, expect, test } from 'vitest';
import {
  compileSchema,
  loadSchema,
  parseModule,
  YangCompileError,
  YangModuleNotFoundError,
  YangSchemaError,
  YangSyntaxError,
} from '../src/index';

const mod = (name: string, body: string) =>
  parseModule(
    `module ${name} {\n  yang-version 1.1;\n  namespace "urn:${name}";\n  prefix ${name};\n${body}\n}`,
    {
      file: `${name}.yang`,
    },
  );

function caught(run: () => unknown): YangSchemaError {
  try {
    run();
  } catch (e) {
    if (YangSchemaError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('compile errors', () => {
  test('rejects a cyclic import chain and names the cycle', () => {
    const a = mod('a', '  import b { prefix b; }');
    const b = mod('b', '  import c { prefix c; }');
    const c = mod('c', '  import a { prefix a; }');
    const e = caught(() => compileSchema([a, b, c]));
    expect(e.code).toBe('YANG_CYCLE');
    expect(e.detail).toContain('a -> b -> c -> a');
  });

  test('names a missing import and the module that imports it', () => {
    const e = caught(() => compileSchema([mod('a', '  import nowhere { prefix n; }')]));
    expect(e).toBeInstanceOf(YangModuleNotFoundError);
    expect(e).toMatchObject({ code: 'YANG_MODULE_MISSING', missing: 'nowhere', importedBy: 'a' });
    expect(e.location).toMatchObject({ file: 'a.yang', line: 5 });
  });

  test('names a missing module found by the loader and its importer', async () => {
    const text = 'module a { namespace "urn:a"; prefix a; import missing-one { prefix m; } }';
    await expect(loadSchema({ modules: ['a'], texts: [text], standardModules: false })).rejects.toMatchObject(
      {
        code: 'YANG_MODULE_MISSING',
        missing: 'missing-one',
        importedBy: 'a',
      },
    );
  });

  test('reports bad syntax with file, line and column', () => {
    const e = caught(() => mod('a', '  leaf x {\n    type string\n  }'));
    expect(e).toBeInstanceOf(YangSyntaxError);
    expect(e.location).toEqual({ file: 'a.yang', line: 7, column: 3 });
  });

  test('rejects a leafref whose path names nothing, at the path statement', () => {
    const e = caught(() => compileSchema([mod('a', '  leaf x { type leafref { path "../nothing"; } }')]));
    expect(e.code).toBe('YANG_LEAFREF');
    expect(e.location).toMatchObject({ file: 'a.yang', line: 5 });
    expect(e.detail).toContain('nothing');
  });

  test('rejects an augment of a missing node', () => {
    const a = mod('a', '  container c;');
    const b = mod('b', '  import a { prefix a; }\n  augment "/a:c/a:missing" { leaf x { type string; } }');
    const e = caught(() => compileSchema([a, b]));
    expect(e).toBeInstanceOf(YangCompileError);
    expect(e.code).toBe('YANG_AUGMENT');
    expect(e.location).toMatchObject({ file: 'b.yang', line: 6, column: 3 });
  });

  test('rejects a deviation of a missing node', () => {
    const a = mod('a', '  container c;');
    const b = mod('b', '  import a { prefix a; }\n  deviation "/a:c/a:gone" { deviate not-supported; }');
    expect(caught(() => compileSchema([a, b])).code).toBe('YANG_AUGMENT');
  });

  test('rejects an unknown type and an unknown grouping', () => {
    expect(caught(() => compileSchema([mod('a', '  leaf x { type no-such; }')])).detail).toContain(
      'unknown type',
    );
    expect(caught(() => compileSchema([mod('a', '  uses no-such;')])).detail).toContain('unknown grouping');
  });

  test('rejects a grouping that uses itself', () => {
    const e = caught(() => compileSchema([mod('a', '  grouping g { container c { uses g; } }\n  uses g;')]));
    expect(e.code).toBe('YANG_CYCLE');
  });

  test('rejects a typedef that refers to itself', () => {
    const e = caught(() => compileSchema([mod('a', '  typedef t { type t; }\n  leaf x { type t; }')]));
    expect(e.code).toBe('YANG_CYCLE');
  });

  test('rejects a range that widens the base type', () => {
    const e = caught(() => compileSchema([mod('a', '  leaf x { type int8 { range "0..300"; } }')]));
    expect(e.code).toBe('YANG_TYPE');
    expect(e.location).toMatchObject({ line: 5 });
  });

  test('rejects a configuration list without a key', () => {
    expect(caught(() => compileSchema([mod('a', '  list l { leaf x { type string; } }')])).detail).toContain(
      'no key',
    );
  });

  test('rejects config true under config false', () => {
    const e = caught(() =>
      compileSchema([mod('a', '  container s { config false; leaf x { config true; type string; } }')]),
    );
    expect(e.detail).toContain('config true');
  });

  test('rejects case outside a choice and action at the top level', () => {
    expect(caught(() => compileSchema([mod('a', '  container c { case x; }')])).detail).toContain(
      'only in a choice',
    );
    expect(caught(() => compileSchema([mod('a', '  action go;')])).detail).toContain(
      '"action" is not allowed',
    );
  });

  test('rejects an if-feature naming an unknown feature', () => {
    expect(
      caught(() => compileSchema([mod('a', '  leaf x { if-feature nope; type string; }')])).detail,
    ).toContain('unknown feature');
  });

  test('rejects two sibling data nodes with the same name, looking through choices', () => {
    const e = caught(() =>
      compileSchema([
        mod('a', '  container c { leaf x { type string; } choice ch { leaf x { type int8; } } }'),
      ]),
    );
    expect(e.detail).toContain('"x" is defined twice');
  });

  test('rejects min-elements above max-elements', () => {
    const e = caught(() =>
      compileSchema([mod('a', '  leaf-list l { type string; min-elements 3; max-elements 2; }')]),
    );
    expect(e.detail).toContain('min-elements 3 above max-elements 2');
  });
});

describe('implemented revisions', () => {
  test('rejects implementing two revisions of one module', () => {
    const r1 = parseModule('module d { namespace "urn:d"; prefix d; revision 2020-01-01; }');
    const r2 = parseModule('module d { namespace "urn:d"; prefix d; revision 2021-01-01; }');
    const e = caught(() => compileSchema([r1, r2], { implemented: ['d@2020-01-01', 'd@2021-01-01'] }));
    expect(e.detail).toContain('one revision only');
  });
});

describe('default values', () => {
  test('rejects a default outside the type range, at the leaf', () => {
    const e = caught(() =>
      compileSchema([mod('a', '  leaf x { type uint8 { range "1..10"; } default 11; }')]),
    );
    expect(e.code).toBe('YANG_TYPE');
    expect(e.detail).toContain('invalid default "11" of /a:x');
    expect(e.location).toMatchObject({ file: 'a.yang', line: 5 });
  });

  test('accepts hexadecimal and octal integer defaults (RFC 7950 9.2.1)', () => {
    const t = compileSchema([
      mod('a', '  leaf x { type uint16; default 0x8000; }\n  leaf y { type int8; default -017; }'),
    ]);
    expect(t.find('/a:x')?.default).toBe('0x8000');
  });

  test('resolves identityref defaults with the prefixes of the module that wrote them', () => {
    const b = mod(
      'b',
      '  identity base-id;\n  identity child { base base-id; }\n  typedef ref { type identityref { base base-id; } default b:child; }',
    );
    const a = mod(
      'a',
      '  import b { prefix other; }\n  leaf x { type other:ref; }\n  leaf y { type other:ref; default other:child; }',
    );
    const t = compileSchema([a, b], { implemented: ['a'] });
    expect(t.find('/a:x')?.default).toBe('b:child');
    expect(
      caught(() =>
        compileSchema([mod('c', '  identity i;\n  leaf z { type identityref { base i; } default i; }')]),
      ).code,
    ).toBe('YANG_TYPE');
  });

  test('ignores defaults of key leafs (RFC 7950 7.8.2)', () => {
    const t = compileSchema([mod('a', '  list l { key k; leaf k { type string; default x; } }')]);
    expect(t.find('/a:l/k')?.default).toBeUndefined();
  });
});

describe('compile limits', () => {
  test('rejects a typedef chain deeper than 256', () => {
    const chain = Array.from(
      { length: 400 },
      (_, i) => `  typedef t${i} { type ${i === 399 ? 'string' : `t${i + 1}`}; }`,
    );
    const e = caught(() => compileSchema([mod('a', `${chain.join('\n')}\n  leaf x { type t0; }`)]));
    expect(e.detail).toContain('typedef chain deeper than');
  });

  test('rejects a schema tree deeper than 512 nodes built through nested groupings', () => {
    const groupings = Array.from(
      { length: 90 },
      (_, i) =>
        `  grouping g${i} { container a { container b { container c { container d { container e { container f { ${i < 89 ? `uses g${i + 1};` : ''} } } } } } } }`,
    );
    const e = caught(() => compileSchema([mod('a', `${groupings.join('\n')}\n  uses g0;`)]));
    expect(e.detail).toContain('schema tree deeper than');
  });
});
