import { compileSchema, parseModule, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, expect, test } from 'vitest';
import { schemaVisibility } from '../src/index.js';
import { Access, ALL_ACCESS, DEFAULT_CONFIG, type NacmConfig, type NacmRule } from '../src/nacm/config.js';

let tree: SchemaTree;
beforeAll(() => {
  tree = compileSchema([
    parseModule(
      `module shop { yang-version 1.1; namespace "urn:shop"; prefix s;
        container shop {
          list item { key sku; leaf sku { type string; } leaf cost { type uint32; } action restock; }
          container books { leaf total { type uint32; } }
        }
        rpc close;
        notification sold { leaf sku { type string; } }
      }`,
      { file: 'shop.yang' },
    ),
  ]);
});

const config = (rules: NacmRule[], overrides: Partial<NacmConfig> = {}): NacmConfig => ({
  ...DEFAULT_CONFIG,
  groups: new Map([['clerks', ['bob']]]),
  ruleLists: [{ name: 'clerks', groups: ['clerks'], rules }],
  ...overrides,
});
const rule = (name: string, type: NacmRule['type'], access: number, permit: boolean): NacmRule => ({
  name,
  module: 'shop',
  type,
  access,
  permit,
});
const node = (path: string) => tree.find(path)!;

test('lists everything when NACM is off', () => {
  expect(schemaVisibility(tree, config([], { enableNacm: false }), 'bob')).toBeUndefined();
});

test('hides a data node a rule denies reading, with everything below it', () => {
  const visible = schemaVisibility(
    tree,
    config([rule('no-books', { kind: 'data', path: '/shop:shop/books' }, Access.read, false)]),
    'bob',
  )!;
  expect(visible(node('/shop:shop/item/cost'))).toBe(true);
  expect(visible(node('/shop:shop/books'))).toBe(false);
  expect(visible(node('/shop:shop/books/total'))).toBe(false);
});

test('with read-default deny lists only what a rule permits, below readable ancestors', () => {
  const visible = schemaVisibility(
    tree,
    config([rule('shop', { kind: 'data', path: '/shop:shop' }, Access.read, true)], { readDefault: false }),
    'bob',
  )!;
  expect(visible(node('/shop:shop/item/sku'))).toBe(true);
  const none = schemaVisibility(tree, config([], { readDefault: false }), 'bob')!;
  expect(none(node('/shop:shop'))).toBe(false);
  expect(none(node('/shop:shop/item/sku'))).toBe(false);
});

test('lists the rpcs, actions and notifications the user may run or receive', () => {
  const visible = schemaVisibility(
    tree,
    config([
      rule('no-close', { kind: 'rpc', name: 'close' }, Access.exec, false),
      rule('no-restock', { kind: 'data', path: '/shop:shop/item/restock' }, Access.exec, false),
      rule('no-sold', { kind: 'notification', name: 'sold' }, ALL_ACCESS, false),
    ]),
    'bob',
  )!;
  expect(visible(node('/shop:close'))).toBe(false);
  expect(visible(node('/shop:shop/item/restock'))).toBe(false);
  expect(visible(node('/shop:sold'))).toBe(false);
  expect(visible(node('/shop:shop/item'))).toBe(true);
});

test('applies rules to the groups of the user only', () => {
  const rules = [rule('no-books', { kind: 'data', path: '/shop:shop/books' }, Access.read, false)];
  expect(schemaVisibility(tree, config(rules), 'alice')!(node('/shop:shop/books'))).toBe(true);
});
