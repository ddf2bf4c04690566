import { escapeXmlText } from '@yangkit/xml';
import {
  createNode,
  type DataNode,
  emptyTree,
  type InstanceTree,
  insertChild,
  type PathStep,
  pathOfSteps,
  stepKey,
  valueFromCanonical,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { Change } from './datastore.js';
import type { ServerSession } from './session.js';

/** At most this many `edit` entries in one netconf-config-change. */
const MAX_EDITS = 64;

/** The module of the RFC 6470 events. */
const NOTIFICATIONS_MODULE = 'ietf-netconf-notifications';

/** The schema nodes of netconf-config-change that an event is built of. */
interface EventSchema {
  readonly event: SchemaNode;
  readonly changedBy: SchemaNode;
  readonly server: SchemaNode;
  readonly username: SchemaNode;
  readonly sessionId: SchemaNode;
  readonly sourceHost: SchemaNode;
  readonly datastore: SchemaNode;
  readonly edit: SchemaNode;
  readonly target: SchemaNode;
  readonly operation: SchemaNode;
}

const eventSchemas = new WeakMap<SchemaTree, EventSchema>();

function eventSchemaOf(schema: SchemaTree): EventSchema {
  let found = eventSchemas.get(schema);
  if (found !== undefined) return found;
  const at = (parent: SchemaNode | undefined, name: string): SchemaNode => {
    const node = parent?.dataChild(NOTIFICATIONS_MODULE, name);
    if (node === undefined) throw new Error(`${NOTIFICATIONS_MODULE} lacks ${name}`);
    return node;
  };
  const event = schema.topLevel(NOTIFICATIONS_MODULE, 'netconf-config-change');
  const changedBy = at(event, 'changed-by');
  const edit = at(event, 'edit');
  found = {
    event: event!,
    changedBy,
    server: at(changedBy, 'server'),
    username: at(changedBy, 'username'),
    sessionId: at(changedBy, 'session-id'),
    sourceHost: at(changedBy, 'source-host'),
    datastore: at(event, 'datastore'),
    edit,
    target: at(edit, 'target'),
    operation: at(edit, 'operation'),
  };
  eventSchemas.set(schema, found);
  return found;
}

/**
 * RFC 6470 netconf-config-change of `changes` to `datastore`, as the codec's notification tree,
 * built node by node (no JSON or XML on the way, each value already in the form the tree keeps): who
 * made them (a session's `common-session-parms`, else the server), and one `edit` per changed
 * subtree (changes inside a node created or deleted in the same transaction are folded into it),
 * `target` an instance-identifier.
 */
export function configChangeEvent(
  schema: SchemaTree,
  session: ServerSession | undefined,
  datastore: string,
  changes: readonly Change[],
  eventTime: string,
): InstanceTree {
  const names = eventSchemaOf(schema);
  const tree = emptyTree(schema, 'notification');
  tree.eventTime = eventTime;
  const event = createNode(names.event, undefined);
  insertChild(tree, event);
  const changedBy = createNode(names.changedBy, event);
  insertChild(event, changedBy);
  if (session === undefined) leaf(changedBy, names.server, '');
  else {
    leaf(changedBy, names.username, session.info.username);
    leaf(changedBy, names.sessionId, String(session.id));
    const host = session.info.sourceHost;
    const address =
      host === undefined
        ? undefined
        : valueFromCanonical(schema, names.sourceHost.type!, host, NOTIFICATIONS_MODULE);
    // An address the type refuses (none a transport gives) leaves out the optional leaf.
    if (address?.ok === true) leaf(changedBy, names.sourceHost, address.value).member = address.member;
  }
  leaf(event, names.datastore, datastore);
  for (const { target, operation } of editEntries(schema, changes)) {
    const entry = createNode(names.edit, event);
    insertChild(event, entry);
    leaf(entry, names.target, target);
    leaf(entry, names.operation, operation);
  }
  return tree;
}

/** A leaf of `schema` holding `value` (in the form the tree keeps), added to `parent`. */
function leaf(parent: DataNode, schema: SchemaNode, value: string): DataNode {
  const node = createNode(schema, parent);
  node.value = value;
  insertChild(parent, node);
  return node;
}

/** The `edit` entries of `changes` (see {@link configChangeEvent}). */
function editEntries(
  schema: SchemaTree,
  changes: readonly Change[],
): { target: string; operation: string }[] {
  const created = new CoveredPaths();
  const out: { target: string; operation: string }[] = [];
  for (const c of changes) {
    if (created.coversBelow(c.path)) continue;
    if (c.op === 'create' || c.op === 'remove') created.add(c.path);
    if (out.length === MAX_EDITS) break;
    const operation =
      c.op === 'create' ? 'create' : c.op === 'remove' ? 'delete' : c.op === 'set' ? 'replace' : 'merge';
    out.push({ target: pathOfSteps(schema, c.path).json, operation });
  }
  return out;
}

/** One step of {@link CoveredPaths}: whether the path up to it is covered, and the steps below. */
interface PathTrie {
  covered: boolean;
  readonly below: Map<SchemaNode, Map<string | undefined, PathTrie>>;
}

/**
 * Paths of created or deleted subtrees, as a trie of steps (schema node, then entry key), so that
 * asking whether a change lies inside one costs O(depth) lookups and no text: a transaction of a
 * million nodes made in one subtree folds into one `edit`.
 */
class CoveredPaths {
  readonly #root: PathTrie = { covered: false, below: new Map() };

  add(path: readonly PathStep[]): void {
    let at = this.#root;
    for (const step of path) {
      let keys = at.below.get(step.schema);
      if (keys === undefined) at.below.set(step.schema, (keys = new Map()));
      const key = stepKey(step);
      let next = keys.get(key);
      if (next === undefined) keys.set(key, (next = { covered: false, below: new Map() }));
      at = next;
    }
    at.covered = true;
  }

  /** True when a proper prefix of `path` was added. */
  coversBelow(path: readonly PathStep[]): boolean {
    let at: PathTrie | undefined = this.#root;
    for (let i = 0; i < path.length - 1; i++) {
      const step = path[i]!;
      at = at.below.get(step.schema)?.get(stepKey(step));
      if (at === undefined) return false;
      if (at.covered) return true;
    }
    return false;
  }
}

/** ietf-netconf-notifications `common-session-parms`. */
export function sessionParams(session: ServerSession): string {
  const host = session.info.sourceHost;
  return `<username>${escapeXmlText(session.info.username)}</username><session-id>${session.id}</session-id>${host ? `<source-host>${escapeXmlText(host)}</source-host>` : ''}`;
}
