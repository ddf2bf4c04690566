import type { SchemaTree } from '@yangkit/yang-schema';
import { compileXPath } from '@yangkit/yang-xpath';
import { beforeAll, describe, expect, test } from 'vitest';
import { type DataNode, treeNavigator } from '../src/index';
import { topDoc, treeSchema } from './tree-fixtures';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await treeSchema();
});

const prefixes = { t: 'urn:example:tree-test' };

describe('treeNavigator', () => {
  test('a key predicate selects one entry among 10,000 through the key index', () => {
    const tree = topDoc(schema, {
      item: Array.from({ length: 10_000 }, (_, i) => ({ name: `n${i}`, size: i % 7 })),
    });
    const nav = treeNavigator(tree);
    let asked = 0;
    const counting = {
      ...nav,
      childrenByKey: (...args: Parameters<NonNullable<typeof nav.childrenByKey>>) => {
        asked++;
        return nav.childrenByKey!(...args);
      },
    };
    const expr = compileXPath("/t:top/t:item[t:name = 'n9999']/t:size", { prefixes });
    expect(expr.evaluateNodes(tree, counting).map((n) => (n as DataNode).value)).toEqual(['3']);
    expect(asked).toBe(1);
  });

  test('a predicate on one key of a two-key list is answered by a scan', () => {
    const tree = topDoc(schema, {
      item: [
        {
          name: 'a',
          part: [
            { a: 'p', b: 1, note: 'one' },
            { a: 'q', b: 1, note: 'two' },
          ],
        },
      ],
    });
    const expr = compileXPath("/t:top/t:item/t:part[t:a = 'q']/t:note", { prefixes });
    expect(expr.evaluateString(tree, treeNavigator(tree))).toBe('two');
  });

  test('the parent of a top-level node is the document, and children come in schema order', () => {
    const tree = topDoc(schema, { words: ['w'], item: [{ name: 'a' }] });
    const nav = treeNavigator(tree);
    const top = compileXPath('/t:top', { prefixes }).evaluateNodes(tree, nav)[0]!;
    expect(nav.parent(top)).toBe(tree);
    expect([...nav.children(top)].map((n) => nav.localName(n))).toEqual(['item', 'words']);
    expect(compileXPath('count(/t:top/t:words/../t:item)', { prefixes }).evaluate(tree, nav)).toBe(1);
  });
});
