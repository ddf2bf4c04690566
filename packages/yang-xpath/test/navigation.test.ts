import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  compileXPath,
  createEvaluationCache,
  type XmlNode,
  type XPathNavigator,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';
import { keyIndexNavigator } from './key-index-navigator.js';
import { buildTree, pathArb, shapeArb } from './random-trees.js';

/** A tree of plain JSON-like objects, as an RFC 7951 codec might hold it. */
interface JsonNode {
  readonly member: string;
  readonly module: string;
  readonly value?: string;
  readonly items: JsonNode[];
  up?: JsonNode;
}

function json(member: string, content: string | JsonNode[], module = 'urn:m'): JsonNode {
  const node: JsonNode =
    typeof content === 'string'
      ? { member, module, value: content, items: [] }
      : { member, module, items: content };
  for (const item of node.items) item.up = node;
  return node;
}

const jsonNavigator: XPathNavigator<JsonNode> = {
  root(n) {
    let r = n;
    while (r.up) r = r.up;
    return r;
  },
  parent: (n) => n.up,
  children: (n) => n.items,
  kind: (n) => (n.up === undefined ? 'root' : 'element'),
  localName: (n) => n.member,
  namespace: (n) => n.module,
  stringValue: function value(n: JsonNode): string {
    return n.value ?? n.items.map(value).join('');
  },
};

describe('navigation over a caller-defined tree', () => {
  const root = json('', [
    json('servers', [
      json('server', [json('name', 'a'), json('port', '80')]),
      json('server', [json('name', 'b'), json('port', '443')]),
      json('server', [json('name', 'c'), json('port', '8080')]),
    ]),
  ]);

  test('evaluates paths, predicates and functions without childrenNamed', () => {
    const expr = compileXPath('/m:servers/m:server[m:port > 100]/m:name', { prefixes: { m: 'urn:m' } });
    expect(expr.evaluateNodes(root, jsonNavigator).map((n) => n.value)).toEqual(['b', 'c']);
  });

  test('derives document order for unions and reverse axes from the tree', () => {
    const prefixes = { m: 'urn:m' };
    const union = compileXPath('//m:server[3]/m:name | //m:server[1]/m:port | //m:server[2]', { prefixes });
    expect(union.evaluateNodes(root, jsonNavigator).map((n) => n.value ?? n.member)).toEqual([
      '80',
      'server',
      'c',
    ]);
    const preceding = compileXPath('//m:server[3]/preceding-sibling::m:server[1]/m:name', { prefixes });
    expect(preceding.evaluateString(root, jsonNavigator)).toBe('b');
  });

  test('uses the caller comparator when given', () => {
    let calls = 0;
    const counting: XPathNavigator<JsonNode> = {
      ...jsonNavigator,
      compareOrder(a, b) {
        calls++;
        const order = (n: JsonNode): number[] => {
          const path: number[] = [];
          for (let x: JsonNode = n; x.up; x = x.up) path.unshift(x.up.items.indexOf(x));
          return path;
        };
        const pa = order(a);
        const pb = order(b);
        for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
        return pa.length - pb.length;
      },
    };
    const expr = compileXPath('//m:port | //m:name', { prefixes: { m: 'urn:m' } });
    expect(expr.evaluateNodes(root, counting).map((n) => n.value)).toEqual([
      'a',
      '80',
      'b',
      '443',
      'c',
      '8080',
    ]);
    expect(calls).toBeGreaterThan(0);
  });
});

describe('node-set invariants', () => {
  const plainNavigator: XPathNavigator<XmlNode> = { ...xmlNavigator };
  delete (plainNavigator as { childrenNamed?: unknown }).childrenNamed;

  test('results are in document order without duplicates, with or without childrenNamed', () => {
    fc.assert(
      fc.property(fc.array(shapeArb, { minLength: 1, maxLength: 3 }), pathArb, (shapes, path) => {
        const root = xmlDocument(shapes.map(buildTree));
        const order = new Map<XmlNode, number>();
        const visit = (n: XmlNode) => {
          order.set(n, order.size);
          for (const a of n.attributes) order.set(a, order.size);
          for (const c of xmlNavigator.children(n)) visit(c);
        };
        visit(root);
        const expr = compileXPath(path);
        const context = root.children[0]!;
        const result = expr.evaluateNodes(context, xmlNavigator);
        const indexes = result.map((n) => order.get(n)!);
        for (let i = 1; i < indexes.length; i++) expect(indexes[i]!).toBeGreaterThan(indexes[i - 1]!);
        expect(expr.evaluateNodes(context, plainNavigator)).toEqual(result);
      }),
      { numRuns: 1500 },
    );
  });

  test('// with a non-positional predicate equals the unabbreviated descendant-or-self form', () => {
    fc.assert(
      fc.property(fc.array(shapeArb, { minLength: 1, maxLength: 3 }), (shapes) => {
        const root = xmlDocument(shapes.map(buildTree));
        const short = compileXPath('//b[. > 1]').evaluateNodes(root, xmlNavigator);
        const long = compileXPath('/descendant-or-self::node()/child::b[boolean(. > 1)]').evaluateNodes(
          root,
          xmlNavigator,
        );
        expect(short).toEqual(long);
      }),
      { numRuns: 500 },
    );
  });
});

describe('key predicates', () => {
  const entries = Array.from({ length: 200 }, (_, i) =>
    xmlElement('thing', 'urn:a', [
      xmlElement('name', 'urn:a', `n${i % 150}`),
      xmlElement('x', 'urn:a', String(i)),
    ]),
  );
  const root = xmlDocument([xmlElement('things', 'urn:a', entries)]);
  const prefixes = { a: 'urn:a' };

  test('a key predicate with several values selects entries in document order', () => {
    const expr = compileXPath('/a:things/a:thing[a:name = $names]/a:x', {
      prefixes,
      variables: { names: [] },
    });
    const names = compileXPath('/a:things/a:thing[a:x = 160 or a:x = 3]/a:name', { prefixes }).evaluateNodes(
      root,
      xmlNavigator,
    );
    const cache = createEvaluationCache();
    for (const options of [{ variables: { names } }, { variables: { names }, cache }]) {
      expect(expr.evaluateNodes(root, xmlNavigator, options).map((n) => n.value)).toEqual([
        '3',
        '10',
        '153',
        '160',
      ]);
    }
  });

  test("a key predicate goes through the navigator's own index when it has one", () => {
    const asked: string[] = [];
    const indexed = keyIndexNavigator(asked);
    const expr = compileXPath("/a:things/a:thing[a:name = 'n5']/a:x", { prefixes });
    expect(expr.evaluateNodes(root, indexed).map((n) => n.value)).toEqual(['5', '155']);
    expect(asked).toEqual(['thing[name=n5]']);
  });

  test('a navigator index that declines falls back to the scan', () => {
    const declining: XPathNavigator<XmlNode> = { ...xmlNavigator, childrenByKey: () => undefined };
    const expr = compileXPath("/a:things/a:thing[a:name = 'n5']/a:x", { prefixes });
    expect(expr.evaluateNodes(root, declining).map((n) => n.value)).toEqual(['5', '155']);
  });

  test('a numeric key comparison keeps number semantics', () => {
    const expr = compileXPath('/a:things/a:thing[a:x = 7.0]/a:name', { prefixes });
    expect(expr.evaluateString(root, xmlNavigator, { cache: createEvaluationCache() })).toBe('n7');
  });

  test('positional predicates after the key apply to the selected entries', () => {
    const expr = compileXPath("/a:things/a:thing[a:name = 'n5'][last()]/a:x", { prefixes });
    expect(expr.evaluateString(root, xmlNavigator, { cache: createEvaluationCache() })).toBe('155');
    expect(expr.evaluateString(root, xmlNavigator)).toBe('155');
  });

  test('a key predicate answered from the cache lists the entries only to build the index', () => {
    let listed = 0;
    const counting: XPathNavigator<XmlNode> = {
      ...xmlNavigator,
      childrenNamed(node, namespace, localName) {
        if (localName === 'thing') listed++;
        return xmlNavigator.childrenNamed!(node, namespace, localName);
      },
    };
    const expr = compileXPath('/a:things/a:thing[a:name = $n]/a:x', { prefixes, variables: { n: '' } });
    const once = createEvaluationCache();
    for (const n of ['n1', 'n2', 'n3']) expr.evaluateNodes(root, counting, { cache: once, variables: { n } });
    expect(listed).toBe(1);
    const inSteps = createEvaluationCache();
    for (const n of ['n1', 'n2', 'n3']) {
      const stepped = expr.evaluateNodesSteps(root, counting, { cache: inSteps, variables: { n } });
      for (let next = stepped.next(); next.done !== true; next = stepped.next());
    }
    expect(listed).toBe(2);
  });

  test('a cleared cache sees changes to the tree', () => {
    const cache = createEvaluationCache();
    const expr = compileXPath("count(/a:things/a:thing[a:name = 'new'])", { prefixes });
    expect(expr.evaluate(root, xmlNavigator, { cache })).toBe(0);
    entries[0]!.children[0]!.value = 'new';
    cache.clear();
    expect(expr.evaluate(root, xmlNavigator, { cache })).toBe(1);
    entries[0]!.children[0]!.value = 'n0';
  });

  test('indexed and scanned key predicates agree on random lists', () => {
    const entryArb = fc.array(fc.constantFrom('k1', 'k2', 'k3', ' k1', '1', '01'), { maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 12 }),
        fc.constantFrom("'k1'", "'1'", '1', 'true()', '$v', '/a:list/a:e[1]/a:k', 'current()/a:k'),
        (entries, value) => {
          const list = xmlElement(
            'list',
            'urn:a',
            entries.map((keys) =>
              xmlElement(
                'e',
                'urn:a',
                keys.map((k) => xmlElement('k', 'urn:a', k)),
              ),
            ),
          );
          const tree = xmlDocument([list]);
          const indexed = compileXPath(`/a:list/a:e[a:k = ${value}]`, { prefixes, variables: { v: 'k2' } });
          const scanned = compileXPath(`/a:list/a:e[boolean(a:k = ${value})]`, {
            prefixes,
            variables: { v: 'k2' },
          });
          const current = list.children[0] ?? list;
          const expected = scanned.evaluateNodes(tree, xmlNavigator, { current });
          expect(indexed.evaluateNodes(tree, xmlNavigator, { current })).toEqual(expected);
          const cache = createEvaluationCache();
          expect(indexed.evaluateNodes(tree, xmlNavigator, { current, cache })).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
