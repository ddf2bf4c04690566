import { escapeXmlText } from '@yangkit/xml';
import { decodeJson, type InstanceTree, type PathStep, pathOfSteps, stepKey } from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { Change } from './datastore.js';
import type { ServerSession } from './session.js';

/** At most this many `edit` entries in one netconf-config-change. */
const MAX_EDITS = 64;

/** The module of the RFC 6470 events. */
const NOTIFICATIONS_MODULE = 'ietf-netconf-notifications';

/**
 * RFC 6470 netconf-config-change of `changes` to `datastore`, as the codec's notification tree
 * (no XML on the way): who made them (a session's `common-session-parms`, else the server), and
 * one `edit` per changed subtree (changes inside a node created or deleted in the same transaction
 * are folded into it), `target` an instance-identifier.
 */
export function configChangeEvent(
  schema: SchemaTree,
  session: ServerSession | undefined,
  datastore: string,
  changes: readonly Change[],
  eventTime: string,
): InstanceTree {
  const event = {
    'changed-by': session === undefined ? { server: [null] } : sessionMembers(session),
    datastore,
    edit: editEntries(schema, changes),
  };
  const tree = decodeJson(
    schema,
    { [`${NOTIFICATIONS_MODULE}:netconf-config-change`]: event },
    {
      kind: 'notification',
    },
  );
  return { ...tree, eventTime };
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

/** ietf-netconf-notifications `common-session-parms` as JSON members. */
function sessionMembers(session: ServerSession): Record<string, string | number> {
  const host = session.info.sourceHost;
  return {
    username: session.info.username,
    'session-id': session.id,
    ...(host === undefined ? {} : { 'source-host': host }),
  };
}

/** ietf-netconf-notifications `common-session-parms`. */
export function sessionParams(session: ServerSession): string {
  const host = session.info.sourceHost;
  return `<username>${escapeXmlText(session.info.username)}</username><session-id>${session.id}</session-id>${host ? `<source-host>${escapeXmlText(host)}</source-host>` : ''}`;
}
