import {
  type DataNode,
  entryKey,
  finishSteps,
  ITEMS_PER_STEP,
  type PathStep,
  type Steps,
  stepKey,
} from '@yangkit/yang-json-codec';
import type { Change } from '../datastore.js';
import { Access } from './config.js';
import type { MatchState, UserAccess } from './rules.js';

/** A refused write: the access operation and the path of the node, for the error message. */
export interface DeniedWrite {
  readonly access: 'create' | 'update' | 'delete';
  readonly path: string;
}

/** The path of `steps` with module prefixes where the module changes, for error messages. */
export function pathText(steps: readonly PathStep[]): string {
  let out = '';
  let module = '';
  for (const s of steps) {
    out += s.schema.module === module ? `/${s.schema.name}` : `/${s.schema.module}:${s.schema.name}`;
    module = s.schema.module;
  }
  return out;
}

/** The match states of the node at `steps`, from the root. */
export function statesAlong(access: UserAccess, steps: readonly PathStep[]): MatchState {
  let states = access.rootStates();
  for (const s of steps) states = access.childStates(states, s.schema, stepKey(s) ?? '');
  return states;
}

/**
 * The first node below the root of a created or removed subtree the user may not create or delete, in
 * document order; a step every few dozen nodes (`seen` counts them across the walk), as a removed
 * subtree can be a whole datastore's.
 */
function* deniedBelowSteps(
  access: UserAccess,
  node: DataNode,
  states: MatchState,
  operation: number,
  seen: { nodes: number },
): Steps<DataNode | undefined> {
  if (node.children === undefined) return undefined;
  for (const nodes of node.children.values()) {
    for (const c of nodes) {
      if (++seen.nodes % ITEMS_PER_STEP === 0) yield;
      const s = access.childStates(states, c.schema, entryKey(c) ?? '');
      if (!access.permitted(c.schema, s, operation)) return c;
      if (c.children === undefined) continue;
      const below = yield* deniedBelowSteps(access, c, s, operation, seen);
      if (below) return below;
    }
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
  return finishSteps(deniedWriteSteps(access, changes));
}

/** {@link deniedWrite} in steps of a few dozen changes. */
export function* deniedWriteSteps(
  access: UserAccess,
  changes: readonly Change[],
): Steps<DeniedWrite | undefined> {
  // The paths of one edit share their leading steps (the same objects): the match states along the
  // previous path are kept per depth, and only the steps that differ are matched again.
  let previous: readonly PathStep[] = [];
  const along: MatchState[] = [access.rootStates()];
  // Changes and the nodes below created or removed subtrees, counted together.
  const seen = { nodes: 0 };
  for (const change of changes) {
    if (++seen.nodes % ITEMS_PER_STEP === 0) yield;
    const path = change.path;
    let shared = 0;
    while (shared < path.length && shared < previous.length && path[shared] === previous[shared]) shared++;
    for (let i = shared; i < path.length; i++) {
      along[i + 1] = access.childStates(along[i]!, path[i]!.schema, stepKey(path[i]!) ?? '');
    }
    previous = path;
    const states = along[path.length]!;
    const schema = change.path[change.path.length - 1]!.schema;
    const kind = change.op === 'create' ? 'create' : change.op === 'remove' ? 'delete' : 'update';
    if (!access.permitted(schema, states, Access[kind])) return { access: kind, path: pathText(change.path) };
    // A list entry comes with its keys, and a removed subtree goes with every node below it.
    const below =
      change.op === 'create' || change.op === 'remove'
        ? yield* deniedBelowSteps(access, change.node, states, Access[kind as 'create' | 'delete'], seen)
        : undefined;
    if (below) return { access: kind, path: `${pathText(change.path)}/...${below.schema.name}` };
  }
  return undefined;
}
