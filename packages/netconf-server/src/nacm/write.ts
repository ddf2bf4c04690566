import type { SchemaNode } from '@yangkit/yang-schema';
import { allChildren, childAt, type DataNode, pathOf, type Step } from '../data-tree.js';
import type { Change } from '../datastore.js';
import { Access } from './config.js';
import type { MatchState, UserAccess } from './rules.js';

/** A refused write: the access operation and the path of the node, for the error message. */
export interface DeniedWrite {
  readonly access: 'create' | 'update' | 'delete';
  readonly path: string;
}

function pathText(steps: readonly Step[]): string {
  let out = '';
  let module = '';
  for (const s of steps) {
    out += s.schema.module === module ? `/${s.schema.name}` : `/${s.schema.module}:${s.schema.name}`;
    module = s.schema.module;
  }
  return out;
}

function statesAlong(access: UserAccess, steps: readonly Step[]): MatchState {
  let states = access.rootStates();
  for (const s of steps) states = access.childStates(states, s.schema, s.key);
  return states;
}

/** The first node of a removed subtree (below its root) the user may not delete. */
function deniedBelow(access: UserAccess, node: DataNode, states: MatchState): DataNode | undefined {
  for (const c of allChildren(node)) {
    const schema: SchemaNode = c.schema!;
    const s = access.childStates(states, schema, c.key);
    if (!access.permitted(schema, s, Access.delete)) return c;
    const below = deniedBelow(access, c, s);
    if (below) return below;
  }
  return undefined;
}

/**
 * RFC 8341 section 3.4.5 for a write: checks every primitive change an edit made (a node
 * created, a value updated, an entry moved, a subtree deleted) and returns the first one the
 * user may not make. Implicit changes are checked like explicit ones, since the datastore logs
 * them too: the ancestors a merge creates, the other case a choice drops, the nodes a replace
 * removes. Deleting a subtree needs delete access on each of its nodes.
 */
export function deniedWrite(access: UserAccess, changes: readonly Change[]): DeniedWrite | undefined {
  for (const change of changes) {
    const states = statesAlong(access, change.steps);
    const schema = change.steps[change.steps.length - 1]!.schema;
    const kind = change.op === 'create' ? 'create' : change.op === 'remove' ? 'delete' : 'update';
    if (!access.permitted(schema, states, Access[kind]))
      return { access: kind, path: pathText(change.steps) };
    if (change.op === 'remove' && change.node !== undefined) {
      const below = deniedBelow(access, change.node, states);
      if (below) return { access: 'delete', path: `${pathText(change.steps)}/...${below.schema!.name}` };
    }
  }
  return undefined;
}

/**
 * The changes that turn `before`'s content into `after`'s (copy-config, delete-config), for
 * {@link deniedWrite}: a node only in `before` is deleted (with its subtree), a node only in
 * `after` is created (each node of its subtree), a leaf whose value differs is updated. Nodes that
 * stay as they are need no access.
 */
export function diffChanges(before: DataNode, after: DataNode): Change[] {
  const out: Change[] = [];
  const created = (n: DataNode): void => {
    out.push({ op: 'create', steps: pathOf(n), value: n.value, xml: n.xml });
    for (const c of allChildren(n)) created(c);
  };
  const compare = (a: DataNode, b: DataNode): void => {
    for (const c of allChildren(a)) {
      const other = childAt(b, { schema: c.schema!, key: c.key });
      if (other === undefined) out.push({ op: 'remove', steps: pathOf(c), node: c, prev: undefined });
      else if (other.value !== c.value || other.xml !== c.xml)
        out.push({
          op: 'set',
          steps: pathOf(other),
          before: c.value,
          after: other.value,
          beforeXml: c.xml,
          afterXml: other.xml,
        });
      else compare(c, other);
    }
    for (const c of allChildren(b)) {
      if (childAt(a, { schema: c.schema!, key: c.key }) === undefined) created(c);
    }
  };
  compare(before, after);
  return out;
}
