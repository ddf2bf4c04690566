import {
  type ChildHolder,
  type DataNode,
  encodeXml,
  entryKey,
  type InstanceTree,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, expect, test } from 'vitest';
import { Access, type NacmConfig, type NacmRule } from '../src/nacm/config.js';
import { denyFlags } from '../src/nacm/extensions.js';
import { compilePath, stepMatches } from '../src/nacm/path.js';
import { readableTree, readFilter } from '../src/nacm/read.js';
import { UserAccess } from '../src/nacm/rules.js';
import { deniedWrite } from '../src/nacm/write.js';
import { changesOf, dataOf, JB, nacmSchema, SAMPLE } from './nacm-helpers.js';

let tree: SchemaTree;
let root: InstanceTree;
beforeAll(async () => {
  tree = await nacmSchema();
  root = dataOf(tree, SAMPLE);
});

const PATHS = [
  '/',
  '/ietf-interfaces:interfaces',
  "/ietf-interfaces:interfaces/interface[name='eth0']",
  "/ietf-interfaces:interfaces/interface[name='absent']",
  '/ietf-interfaces:interfaces/interface/type',
  '/example-jukebox:jukebox',
  '/example-jukebox:jukebox/library/artist',
  "/example-jukebox:jukebox/playlist[name='Mine']/description",
  '/example-secrets:vault/pin',
  '/nope:nothing',
];
const MODULES = ['*', 'ietf-interfaces', 'example-jukebox', 'example-secrets'];

const ruleArb: fc.Arbitrary<NacmRule> = fc.record({
  name: fc.constant('r'),
  module: fc.constantFrom(...MODULES),
  type: fc.oneof(
    fc.constant({ kind: 'any' as const }),
    fc.constantFrom(...PATHS).map((path) => ({ kind: 'data' as const, path })),
  ),
  access: fc.integer({ min: 0, max: 31 }),
  permit: fc.boolean(),
});

const configArb: fc.Arbitrary<NacmConfig> = fc.record({
  enableNacm: fc.constant(true),
  readDefault: fc.boolean(),
  writeDefault: fc.boolean(),
  execDefault: fc.boolean(),
  groups: fc.constant(new Map([['g', ['u']]])),
  ruleLists: fc.array(
    fc.record({
      name: fc.constant('l'),
      groups: fc.constant(['g']),
      rules: fc.array(ruleArb, { maxLength: 4 }),
    }),
    { maxLength: 3 },
  ),
});

/** RFC 8341 section 3.4.5 for one node, the slow way: every rule's path against the node's ancestry. */
function naiveReadable(config: NacmConfig, chain: readonly DataNode[]): boolean {
  return naivePermitted(config, chain, Access.read);
}

function naivePermitted(config: NacmConfig, chain: readonly DataNode[], access: number): boolean {
  const node = chain[chain.length - 1]!;
  const schema = node.schema;
  for (const list of config.ruleLists) {
    for (const rule of list.rules) {
      if (!(rule.access & access)) continue;
      if (rule.module !== '*' && rule.module !== schema.module) continue;
      if (rule.type.kind === 'data') {
        const steps = compilePath(tree, rule.type.path);
        if (steps === undefined || steps.length > chain.length) continue;
        if (!steps.every((s, i) => stepMatches(s, chain[i]!.schema, entryKey(chain[i]!) ?? ''))) continue;
      }
      return rule.permit;
    }
  }
  const flags = denyFlags(schema);
  if (flags.denyAll) return false;
  if (access === Access.read) return config.readDefault;
  return !flags.denyWrite && config.writeDefault;
}

/** Every path of the tree (as names) that a user sees. */
function children(node: ChildHolder): DataNode[] {
  return [...(node.children?.values() ?? [])].flat();
}

function nameOf(c: DataNode, prefix: string): string {
  const key = entryKey(c);
  return `${prefix}/${c.schema.name}${key === undefined ? '' : `[${key}]`}`;
}

function visible(node: ChildHolder, prefix = ''): string[] {
  const out: string[] = [];
  for (const c of children(node)) {
    const name = nameOf(c, prefix);
    out.push(name, ...visible(c, name));
  }
  return out;
}

function expected(config: NacmConfig, node: ChildHolder, chain: DataNode[] = [], prefix = ''): string[] {
  const out: string[] = [];
  for (const c of children(node)) {
    const path = [...chain, c];
    if (!c.schema.isKey && !naiveReadable(config, path)) continue;
    const name = nameOf(c, prefix);
    out.push(name, ...expected(config, c, path, name));
  }
  return out;
}

test('the read filter writes the bytes of the read view, whatever rules name entries by key', () => {
  fc.assert(
    fc.property(configArb, (config) => {
      const access = new UserAccess(tree, config, 'u');
      expect(encodeXml(root, { view: { filter: readFilter(access) } })).toBe(
        encodeXml(readableTree(access, root)),
      );
    }),
    { numRuns: 500 },
  );
});

test('the read view holds exactly the nodes whose ancestors and selves are readable', () => {
  fc.assert(
    fc.property(configArb, fc.boolean(), (config, share) => {
      const view = readableTree(new UserAccess(tree, config, 'u'), root, share);
      expect(visible(view).sort()).toEqual(expected(config, root).sort());
    }),
    { numRuns: 500 },
  );
});

function allPermitted(config: NacmConfig, node: DataNode, chain: DataNode[], access: number): boolean {
  const path = [...chain, node];
  if (!naivePermitted(config, path, access)) return false;
  for (const c of children(node)) if (!allPermitted(config, c, path, access)) return false;
  return true;
}

test('deleting a subtree is refused exactly when one of its nodes may not be deleted', () => {
  const jukebox = children(root).find((c) => c.schema.name === 'jukebox')!;
  const remove = `<jukebox xmlns="${JB}" xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0" nc:operation="delete"/>`;
  const changes = changesOf(tree, SAMPLE, remove);
  fc.assert(
    fc.property(configArb, (config) => {
      const denied = deniedWrite(new UserAccess(tree, config, 'u'), changes);
      expect(denied === undefined).toBe(allPermitted(config, jukebox, [], Access.delete));
    }),
    { numRuns: 500 },
  );
});
