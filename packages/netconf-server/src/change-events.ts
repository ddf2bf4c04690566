import { escapeXmlText } from '@yangkit/xml';
import { decodeJson, type InstanceTree, pathOfSteps } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
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
  const covered = new Set<string>();
  const out: { target: string; operation: string }[] = [];
  for (const c of changes) {
    const parts = c.path.map((step) => pathOfSteps(schema, [step]).json);
    let folded = false;
    for (let i = 1; i < parts.length && !folded; i++) folded = covered.has(parts.slice(0, i).join('\u0000'));
    if (folded) continue;
    if (c.op === 'create' || c.op === 'remove') covered.add(parts.join('\u0000'));
    if (out.length === MAX_EDITS) break;
    const operation =
      c.op === 'create' ? 'create' : c.op === 'remove' ? 'delete' : c.op === 'set' ? 'replace' : 'merge';
    out.push({ target: pathOfSteps(schema, c.path).json, operation });
  }
  return out;
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
