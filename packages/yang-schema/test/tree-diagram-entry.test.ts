import { expect, test } from 'vitest';
import { compileSchema, parseModule, treeDiagramEntry } from '../src/index';

const tree = compileSchema([
  parseModule(
    `module shop { yang-version 1.1; namespace "urn:shop"; prefix s;
      feature fast;
      typedef price { type decimal64 { fraction-digits 2; } }
      container shop {
        presence "open";
        list item { key "sku"; leaf sku { type string; } leaf cost { type price; } leaf ref { type leafref { path "../sku"; } }
          leaf fast { if-feature fast; type empty; status deprecated; } }
        leaf count { type uint32; config false; }
      }
      rpc restock { input { leaf sku { type string; mandatory true; } } }
    }`,
    { file: 'shop.yang' },
  ),
]);
const entry = (path: string) => treeDiagramEntry(tree, tree.find(path)!, 'shop');

test('gives the flags, label and keys of a list line', () => {
  expect(entry('/shop:shop/item')).toMatchObject({
    status: '+',
    flags: 'rw',
    label: 'item*',
    keys: '[sku]',
    type: '',
  });
});

test('marks a presence container and an optional leaf', () => {
  expect(entry('/shop:shop').label).toBe('shop!');
  expect(entry('/shop:shop/item/cost')).toMatchObject({ label: 'cost?', type: 'price' });
});

test('gives the state flag of config false data and the target of a leafref', () => {
  expect(entry('/shop:shop/count').flags).toBe('ro');
  expect(entry('/shop:shop/item/ref').type).toBe('-> ../sku');
});

test('gives the status and if-features of a node', () => {
  expect(entry('/shop:shop/item/fast')).toMatchObject({ status: 'x', features: '{fast}?' });
});

test('gives the flags of an operation and of its input', () => {
  expect(entry('/shop:restock').flags).toBe('-x');
  expect(entry('/shop:restock/input/sku')).toMatchObject({ flags: '-w', label: 'sku' });
});
