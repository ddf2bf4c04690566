import { describe, expect, test } from 'vitest';
import { compileSchema, parseModule, type SchemaNode } from '../src/index';
import { parseShared } from './helpers';

const mod = (name: string, body: string, prefix = name) =>
  parseModule(`module ${name} { yang-version 1.1; namespace "urn:${name}"; prefix ${prefix};\n${body}\n}`, {
    file: `${name}.yang`,
  });

const base = mod(
  'base',
  `
  feature fast;
  feature slow;
  identity crypto;
  identity aes { base crypto; }
  identity hmac;
  identity aes-hmac { base aes; base hmac; }
  typedef percent { type uint8 { range "0..100"; } units percent; default 50; }
  typedef small-percent { type percent { range "0..10"; } default 5; }
  typedef name { type string { length "1..64"; pattern "[a-z]+"; } }
  typedef short-name { type name { length "1..8"; pattern "[a-c]+"; } }
  grouping endpoint {
    leaf address { type string; }
    leaf port { type uint16; default 830; }
    container tls { leaf cert { type string; } }
  }
  container top {
    leaf level { type small-percent; }
    leaf label { type short-name; }
    leaf color { type enumeration { enum red; enum green { value 7; } enum blue; enum turbo { if-feature "not fast"; } } }
    leaf flags { type bits { bit b { position 3; } bit a { position 0; } } }
    leaf ratio { type decimal64 { fraction-digits 2; range "0 .. 1.5"; } }
    leaf algo { type identityref { base crypto; } }
    leaf any { type union { type int8; type string; } }
    uses endpoint {
      refine port { default 4334; }
      refine tls { presence "TLS on"; }
      augment tls { leaf key { type string; } }
      when "../level > 1";
    }
    choice transport {
      default ssh;
      leaf ssh { type empty; }
      case tcp { leaf tcp-port { type uint16; mandatory true; } }
    }
    leaf only-fast { if-feature fast; type string; }
    leaf only-slow { if-feature "slow and not fast"; type string; }
    container state { config false; leaf counter { type uint64; } }
    list server {
      key "name";
      unique "address port";
      ordered-by user;
      min-elements 1;
      max-elements 8;
      leaf name { type string; }
      leaf address { type string; }
      leaf port { type uint16; }
      must "address or port" { error-message "need one"; error-app-tag too-few; }
    }
    leaf server-ref { type leafref { path "../server/name"; } }
    leaf-list tags { type string; default a; default b; }
  }
  rpc ping { input { leaf host { type leafref { path "/base:top/base:server/base:name"; } } } }
  `,
);

const tree = compileSchema([base], { features: { base: ['fast', 'slow'] } });
const n = (path: string): SchemaNode => {
  const node = tree.find(path);
  if (!node) throw new Error(`no node ${path}`);
  return node;
};

describe('typedef chains', () => {
  test('narrows ranges along the chain and keeps the derived type name', () => {
    const t = n('/base:top/level').type;
    expect(t?.name).toBe('base:small-percent');
    expect(t?.base).toBe('uint8');
    expect(t?.range?.intervals).toEqual([{ min: 0n, max: 10n }]);
  });

  test('takes units and default from the typedef chain', () => {
    expect(n('/base:top/level').units).toBe('percent');
    expect(n('/base:top/level').default).toBe('5');
  });

  test('ANDs patterns and narrows lengths along the chain', () => {
    const t = n('/base:top/label').type;
    expect(t?.patterns?.map((p) => p.source)).toEqual(['[a-z]+', '[a-c]+']);
    expect(t?.patterns?.[1]?.regex.test('abc')).toBe(true);
    expect(t?.length?.intervals).toEqual([{ min: 1n, max: 8n }]);
  });

  test('numbers enums after explicit values and drops those whose if-feature is off', () => {
    expect(n('/base:top/color').type?.enums).toEqual([
      { name: 'red', value: 0 },
      { name: 'green', value: 7 },
      { name: 'blue', value: 8 },
    ]);
  });

  test('sorts bits by position', () => {
    expect(n('/base:top/flags').type?.bits).toEqual([
      { name: 'a', position: 0 },
      { name: 'b', position: 3 },
    ]);
  });

  test('scales decimal64 ranges by fraction-digits', () => {
    const t = n('/base:top/ratio').type;
    expect(t?.fractionDigits).toBe(2);
    expect(t?.range?.intervals).toEqual([{ min: 0n, max: 150n }]);
  });

  test('keeps union members in order', () => {
    expect(n('/base:top/any').type?.members?.map((m) => m.base)).toEqual(['int8', 'string']);
  });
});

describe('groupings', () => {
  test('copies grouping nodes into the namespace of the using module', () => {
    expect(n('/base:top/address').module).toBe('base');
  });

  test('applies refine to defaults and presence', () => {
    expect(n('/base:top/port').default).toBe('4334');
    expect(n('/base:top/tls').presence).toBe('TLS on');
  });

  test('applies augment inside uses', () => {
    expect(n('/base:top/tls/key').kind).toBe('leaf');
  });

  test('gives nodes of a uses the uses when, with the parent as context node', () => {
    const when = n('/base:top/address').when[0];
    expect(when?.expression).toBe('../level > 1');
    expect(when?.origin).toBe('uses');
    expect(when?.contextNode).toBe(n('/base:top'));
  });
});

describe('choice and case', () => {
  test('wraps a shorthand case member in an implicit case of the same name', () => {
    const ssh = n('/base:top/transport/ssh');
    expect(ssh.kind).toBe('case');
    expect(ssh.children[0]?.kind).toBe('leaf');
    expect(n('/base:top/transport').default).toBe('ssh');
  });

  test('hides choice and case from dataChildren', () => {
    const names = n('/base:top')
      .dataChildren()
      .map((c) => c.name);
    expect(names).toContain('ssh');
    expect(names).toContain('tcp-port');
    expect(names).not.toContain('transport');
    expect(n('/base:top').dataChild('base', 'tcp-port')?.mandatory).toBe(true);
  });
});

describe('features', () => {
  test('keeps nodes whose if-feature holds and removes the others', () => {
    expect(tree.find('/base:top/only-fast')).toBeDefined();
    expect(tree.find('/base:top/only-slow')).toBeUndefined();
  });

  test('uses the caller feature set', () => {
    const none = compileSchema([base], { features: { base: [] } });
    expect(none.find('/base:top/only-fast')).toBeUndefined();
    expect(none.moduleByName('base')?.enabledFeatures).toEqual([]);
    expect(tree.moduleByName('base')?.enabledFeatures).toEqual(['fast', 'slow']);
  });
});

describe('identities', () => {
  test('resolves multiple bases and answers derived-from transitively', () => {
    expect(tree.identity('base:aes-hmac')?.bases).toEqual(['base:aes', 'base:hmac']);
    expect(tree.isDerivedFrom('base:aes-hmac', 'base:crypto')).toBe(true);
    expect(tree.isDerivedFrom('base:crypto', 'base:crypto')).toBe(false);
    expect(tree.derivedIdentities('base:crypto').map((i) => i.name)).toEqual(['aes', 'aes-hmac']);
  });

  test('qualifies identityref bases with the module name', () => {
    expect(n('/base:top/algo').type?.identityBases).toEqual(['base:crypto']);
  });
});

describe('data node properties', () => {
  test('inherits config false from the parent', () => {
    expect(n('/base:top/state/counter').config).toBe(false);
    expect(n('/base:top/server').config).toBe(true);
  });

  test('keeps list keys, unique, ordered-by and element bounds', () => {
    const server = n('/base:top/server');
    expect(server.keys).toEqual(['name']);
    expect(server.keyNodes.map((k) => k.name)).toEqual(['name']);
    expect(server.unique).toEqual([['address', 'port']]);
    expect(server.orderedBy).toBe('user');
    expect([server.minElements, server.maxElements]).toEqual([1, 8]);
  });

  test('keeps must with error-message, error-app-tag and the prefix map', () => {
    const must = n('/base:top/server').must[0];
    expect(must).toMatchObject({
      expression: 'address or port',
      errorMessage: 'need one',
      errorAppTag: 'too-few',
    });
    expect(must?.prefixes.get('base')).toBe('base');
  });

  test('keeps leaf-list defaults in order', () => {
    expect(n('/base:top/tags').defaults).toEqual(['a', 'b']);
  });
});

describe('leafref', () => {
  test('resolves a relative path to its target leaf', () => {
    expect(n('/base:top/server-ref').type?.leafrefTarget).toBe(n('/base:top/server/name'));
  });

  test('resolves an absolute path from inside rpc input', () => {
    expect(n('/base:ping/input/host').type?.leafrefTarget).toBe(n('/base:top/server/name'));
  });
});

describe('augment and deviation across modules', () => {
  const ext = mod(
    'ext',
    `
    import base { prefix b; }
    augment "/b:top/b:transport" { case tls { leaf tls-port { type uint16; } } leaf quic { type empty; } }
    augment "/b:top" { when "b:level = 3"; container extra { leaf x { type string; } } }
    augment "/b:ping/b:input" { leaf count { type uint8; } }
    deviation "/b:top/b:only-fast" { deviate not-supported; }
    deviation "/b:top/b:port" { deviate replace { type uint32; default 22; } }
    deviation "/b:top/b:address" { deviate add { mandatory true; must "string-length(.) > 0"; } }
    deviation "/b:top/b:tags" { deviate delete { default a; } }
    `,
    'x',
  );
  const t2 = compileSchema([base, ext], { implemented: ['ext'] });

  test('adds augmenting nodes in the augmenting module namespace', () => {
    const extra = t2.find('/base:top/ext:extra');
    expect(extra?.module).toBe('ext');
    expect(extra?.namespace).toBe('urn:ext');
    expect(extra?.dataPath).toBe('/base:top/ext:extra');
    expect(t2.find('/base:top/ext:extra/x')?.dataPath).toBe('/base:top/ext:extra/x');
  });

  test('implements the augmented module', () => {
    expect(t2.moduleByName('base')?.implemented).toBe(true);
  });

  test('gives augmented nodes the augment when with the target as context node', () => {
    expect(t2.find('/base:top/ext:extra')?.when[0]).toMatchObject({
      origin: 'augment',
      expression: 'b:level = 3',
      contextNode: t2.find('/base:top'),
    });
  });

  test('adds cases and shorthand cases to a choice', () => {
    expect(t2.find('/base:top/transport/ext:tls/tls-port')?.kind).toBe('leaf');
    expect(t2.find('/base:top/transport/ext:quic')?.kind).toBe('case');
  });

  test('augments rpc input', () => {
    expect(t2.find('/base:ping/input/ext:count')?.isOperation).toBe(true);
  });

  test('removes a not-supported node', () => {
    expect(t2.find('/base:top/only-fast')).toBeUndefined();
  });

  test('replaces type and default', () => {
    expect(t2.find('/base:top/port')?.type?.base).toBe('uint32');
    expect(t2.find('/base:top/port')?.default).toBe('22');
  });

  test('adds mandatory and must', () => {
    const address = t2.find('/base:top/address');
    expect(address?.mandatory).toBe(true);
    expect(address?.must.map((m) => m.expression)).toEqual(['string-length(.) > 0']);
  });

  test('deletes a leaf-list default', () => {
    expect(t2.find('/base:top/tags')?.defaults).toEqual(['b']);
  });

  test('records who deviates a module', () => {
    expect(t2.moduleByName('base')?.deviatedBy).toEqual(['ext']);
  });
});

describe('submodules', () => {
  test('compiles include with the submodule definitions visible to the module', () => {
    const main = mod('main', 'include sub; container c { uses g; }');
    const sub = parseModule(
      'submodule sub { yang-version 1.1; belongs-to main { prefix main; } grouping g { leaf a { type string; } } leaf s { type int8; } }',
    );
    const t = compileSchema([main, sub]);
    expect(t.find('/main:c/a')?.module).toBe('main');
    expect(t.find('/main:s')?.type?.base).toBe('int8');
    expect(t.moduleByName('main')?.submodules.map((s) => s.name)).toEqual(['sub']);
  });
});

describe('RFC 8040 and RFC 7952 extensions', () => {
  const t = compileSchema([
    parseShared('corpus/ietf/ietf-restconf@2017-01-26.yang'),
    parseShared('corpus/ietf/ietf-yang-patch@2017-02-22.yang'),
    parseShared('corpus/ietf/ietf-netconf-with-defaults@2011-06-01.yang'),
    parseShared('corpus/ietf/ietf-netconf@2011-06-01.yang'),
    parseShared('corpus/ietf/ietf-origin@2018-02-14.yang'),
    parseShared('corpus/ietf/ietf-datastores@2018-02-14.yang'),
    parseShared('corpus/ietf/ietf-yang-metadata@2016-08-05.yang'),
    parseShared('corpus/ietf/ietf-yang-types@2013-07-15.yang'),
    parseShared('corpus/ietf/ietf-inet-types@2013-07-15.yang'),
    parseShared('corpus/ietf/ietf-netconf-acm@2018-02-14.yang'),
  ]);

  test('compiles rc:yang-data templates of ietf-restconf and ietf-yang-patch', () => {
    const errors = t.yangData.get('ietf-restconf:yang-errors');
    expect(errors?.children.map((c) => c.name)).toEqual(['errors']);
    expect(errors?.children[0]?.dataChild('ietf-restconf', 'error')?.kind).toBe('list');
    expect(t.yangData.get('ietf-yang-patch:yang-patch')?.children[0]?.name).toBe('yang-patch');
    expect(t.yangData.get('ietf-yang-patch:yang-patch-status')?.children[0]?.name).toBe('yang-patch-status');
  });

  test('compiles md:annotation statements with their types', () => {
    expect(t.annotations.get('ietf-netconf-with-defaults:default')?.type.base).toBe('boolean');
    expect(t.annotations.get('ietf-origin:origin')?.type.base).toBe('identityref');
  });
});

describe('nodes under a false if-feature', () => {
  const a = mod('fa', 'feature f; container c { if-feature f; leaf x { type string; } }\n container d;');
  const b = mod(
    'fb',
    `import fa { prefix a; }
     augment "/a:c" { leaf y { type string; } }
     deviation "/a:c/a:x" { deviate add { mandatory true; } }
     augment "/a:d" { leaf z { type string; } }`,
  );

  test('still serve as augment and deviation targets, and are left out of the tree', () => {
    const t = compileSchema([a, b], { features: { fa: [] } });
    expect(t.find('/fa:c')).toBeUndefined();
    expect(t.find('/fa:d/fb:z')?.kind).toBe('leaf');
  });

  test('enables none of the features of unlisted modules when asked to', () => {
    const t = compileSchema([a, b], { features: { fb: '*' }, unlistedFeatures: 'none' });
    expect(t.moduleByName('fa')?.enabledFeatures).toEqual([]);
    expect(t.find('/fa:c')).toBeUndefined();
  });
});

describe('import revisions', () => {
  const rev = (date: string, type: string) =>
    parseModule(
      `module dep { yang-version 1.1; namespace "urn:dep"; prefix d; revision ${date}; typedef t { type ${type}; } }`,
    );
  const old = rev('2019-01-01', 'int8');
  const fresh = rev('2024-01-01', 'string');

  test('picks the revision named by revision-date', () => {
    const user = mod('user', 'import dep { prefix d; revision-date 2019-01-01; } leaf x { type d:t; }');
    expect(compileSchema([user, old, fresh], { implemented: ['user'] }).find('/user:x')?.type?.base).toBe(
      'int8',
    );
  });

  test('picks the newest revision when the import names none', () => {
    const user = mod('user', 'import dep { prefix d; } leaf x { type d:t; }');
    const t = compileSchema([user, old, fresh], { implemented: ['user'] });
    expect(t.find('/user:x')?.type?.base).toBe('string');
    expect(t.moduleByName('user')?.imports).toEqual([{ module: 'dep', revision: '2024-01-01' }]);
  });
});
