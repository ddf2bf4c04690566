import { expect, test } from 'vitest';
import {
  checkSchemaPaths,
  compileXPath,
  createEvaluationCache,
  createXmlNavigator,
  parseXmlForXPath,
  parseXPath,
  type SchemaNavigator,
  XPathSyntaxError,
  xmlNavigator,
} from '../src/index.js';

// The examples of README.md, kept runnable.

test('README: evaluate a must expression over XML data', () => {
  const doc = parseXmlForXPath(`
    <jukebox xmlns="http://example.com/ns/example-jukebox">
      <library>
        <artist><name>Foo Fighters</name></artist>
        <artist-count>1</artist-count>
      </library>
    </jukebox>`);
  const must = compileXPath('jbox:artist-count = count(jbox:artist)', {
    prefixes: { jbox: 'http://example.com/ns/example-jukebox' },
  });
  const library = doc.children[0]!.children[0]!;
  expect(must.evaluateBoolean(library, xmlNavigator)).toBe(true);
});

test('README: check leafrefs with a shared evaluation cache', () => {
  const doc = parseXmlForXPath(`
    <things xmlns="urn:example:a">
      <thing><name>a</name><ref>b</ref></thing>
      <thing><name>b</name><ref>zzz</ref></thing>
    </things>`);
  const leafref = compileXPath('/a:things/a:thing[a:name = current()]', { prefixes: { a: 'urn:example:a' } });
  const refs = compileXPath('//a:ref', { prefixes: { a: 'urn:example:a' } }).evaluateNodes(doc, xmlNavigator);
  const cache = createEvaluationCache(); // valid while the tree does not change
  const dangling = refs.filter((ref) => !leafref.evaluateBoolean(ref, xmlNavigator, { cache }));
  expect(dangling.map((ref) => ref.value)).toEqual(['zzz']);
});

test('README: YANG functions take type information from the navigator', () => {
  const nav = createXmlNavigator({
    schemaInfo: (node) =>
      node.name === 'severity'
        ? {
            baseType: 'enumeration',
            enumValue: (name) => ['minor', 'major', 'critical'].indexOf(name) + 1 || undefined,
          }
        : undefined,
  });
  const doc = parseXmlForXPath('<alarm xmlns="urn:x"><severity>critical</severity></alarm>');
  const expr = compileXPath('enum-value(/x:alarm/x:severity) > 2', { prefixes: { x: 'urn:x' } });
  expect(expr.evaluateBoolean(doc, nav)).toBe(true);
});

test('README: syntax errors carry the position of the offending token', () => {
  try {
    compileXPath('/a:b[c = ]');
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(XPathSyntaxError);
    expect((error as XPathSyntaxError).position).toBe(9);
    expect((error as XPathSyntaxError).message).toBe("unexpected ']' at position 9, expected an expression");
  }
});

test('README: static check of paths against a schema tree', () => {
  type S = { name: string; children: S[]; parent?: S };
  const leaf = (name: string): S => ({ name, children: [] });
  const root: S = { name: '', children: [{ name: 'system', children: [leaf('hostname')] }] };
  root.children[0]!.parent = root;
  root.children[0]!.children[0]!.parent = root.children[0]!;
  const schemaNav: SchemaNavigator<S> = {
    root: () => root,
    parent: (n) => n.parent,
    children: (n) => n.children,
    localName: (n) => n.name,
    namespace: () => 'urn:sys',
  };
  const errors = checkSchemaPaths(parseXPath('/sys:system/sys:hostnme'), schemaNav, root, {
    prefixes: { sys: 'urn:sys' },
  });
  expect(errors.map((e) => [e.code, e.position])).toEqual([['NO_SCHEMA_NODE', 12]]);
});
