import { loadSchema, type SchemaNode, type SchemaTree } from '@yangkit/yang-schema';
import { type DataNode, decodeJson, type InstanceTree, type PathStep } from '../src/index';

/** A module with what tree edits care about: keyed and user-ordered lists, leaf-lists, a choice. */
export const TREE_MODULE = `module tree-test {
  yang-version 1.1;
  namespace "urn:example:tree-test";
  prefix tt;
  container top {
    list item {
      key name;
      leaf name { type string; }
      leaf size { type uint16; }
      leaf-list tags { type string; ordered-by user; }
      list part {
        key "a b";
        leaf a { type string; }
        leaf b { type uint8; }
        leaf note { type string; }
      }
    }
    list queue {
      key id;
      ordered-by user;
      leaf id { type uint8; }
      leaf label { type string; }
    }
    leaf-list words { type string; }
    choice mode {
      case one { leaf alpha { type string; } }
      case two { leaf beta { type string; } leaf gamma { type string; } }
    }
    anydata blob;
  }
}`;

let cached: Promise<SchemaTree> | undefined;

/** The schema of {@link TREE_MODULE}. */
export function treeSchema(): Promise<SchemaTree> {
  cached ??= loadSchema({ texts: [TREE_MODULE], modules: ['tree-test'] });
  return cached;
}

/** A data document of `tree-test:top` with the given content. */
export function topDoc(schema: SchemaTree, top: Record<string, unknown>): InstanceTree {
  return decodeJson(schema, { 'tree-test:top': top });
}

/** A sample document: two items (one with parts), tags and words. */
export function sampleTop(schema: SchemaTree): InstanceTree {
  return topDoc(schema, {
    item: [
      { name: 'a', size: 1, tags: ['x'] },
      { name: 'b', size: 2, part: [{ a: 'p', b: 1, note: 'n' }] },
    ],
    words: ['w1', 'w2'],
  });
}

/** The schema node at `path` (`/tree-test:top/item`). */
export function node(schema: SchemaTree, path: string): SchemaNode {
  const found = schema.find(path);
  if (found === undefined) throw new Error(`no ${path}`);
  return found;
}

/** One instance of a data resource below `parent`, decoded from its JSON member. */
export function resource(schema: SchemaTree, parent: string, member: Record<string, unknown>): DataNode {
  const doc = decodeJson(schema, member, { kind: 'resource', parent: node(schema, parent) });
  return [...doc.children.values()][0]![0]!;
}

/** Steps `/top`, `/top/item[name]` and the like. */
export function steps(schema: SchemaTree) {
  const top = node(schema, '/tree-test:top');
  const item = node(schema, '/tree-test:top/item');
  const queue = node(schema, '/tree-test:top/queue');
  return {
    top: { schema: top } as PathStep,
    item: (name: string): PathStep => ({ schema: item, keys: [{ name: 'name', value: name }] }),
    items: { schema: item } as PathStep,
    queue: (id: number): PathStep => ({ schema: queue, keys: [{ name: 'id', value: String(id) }] }),
    size: { schema: node(schema, '/tree-test:top/item/size') } as PathStep,
    tag: (v: string): PathStep => ({ schema: node(schema, '/tree-test:top/item/tags'), value: v }),
    word: (v: string): PathStep => ({ schema: node(schema, '/tree-test:top/words'), value: v }),
    alpha: { schema: node(schema, '/tree-test:top/alpha') } as PathStep,
    beta: { schema: node(schema, '/tree-test:top/beta') } as PathStep,
  };
}
