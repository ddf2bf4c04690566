import { escapeXmlText, namespaceDeclarations } from '@yangkit/xml';
import type { PathStep } from '@yangkit/yang-json-codec';
import type { Change } from './datastore.js';
import type { ServerSession } from './session.js';

/** At most this many `<edit>` entries in one netconf-config-change. */
const MAX_EDITS = 64;

/**
 * RFC 6470 netconf-config-change `<edit>` entries: one per changed subtree (changes inside a node
 * created or deleted in the same transaction are folded into it), `target` an instance-identifier.
 */
export function editSummary(changes: readonly Change[]): string {
  const covered = new Set<string>();
  let out = '';
  let count = 0;
  for (const c of changes) {
    const parts = c.path.map(stepText);
    let folded = false;
    for (let i = 1; i < parts.length && !folded; i++) folded = covered.has(parts.slice(0, i).join(''));
    if (folded) continue;
    const target = parts.join('');
    if (c.op === 'create' || c.op === 'remove') covered.add(target);
    if (++count > MAX_EDITS) break;
    const ns = new Map<string, string>();
    for (const st of c.path) {
      ns.set(st.schema.prefix, st.schema.namespace);
      for (const k of st.schema.keyNodes) ns.set(k.prefix, k.namespace);
    }
    let decl = '';
    decl += namespaceDeclarations(ns);
    const operation =
      c.op === 'create' ? 'create' : c.op === 'remove' ? 'delete' : c.op === 'set' ? 'replace' : 'merge';
    out += `<edit><target${decl}>${escapeXmlText(target)}</target><operation>${operation}</operation></edit>`;
  }
  return out;
}

function stepText(step: PathStep): string {
  const s = step.schema;
  let text = `/${s.prefix}:${s.name}`;
  for (const k of step.keys ?? []) text += `[${s.prefix}:${k.name}=${quoteLiteral(k.value)}]`;
  if (step.value !== undefined) text += `[.=${quoteLiteral(step.value)}]`;
  return text;
}

function quoteLiteral(v: string): string {
  return v.includes("'") ? `"${v}"` : `'${v}'`;
}

/** ietf-netconf-notifications `common-session-parms`. */
export function sessionParams(session: ServerSession): string {
  const host = session.info.sourceHost;
  return `<username>${escapeXmlText(session.info.username)}</username><session-id>${session.id}</session-id>${host ? `<source-host>${escapeXmlText(host)}</source-host>` : ''}`;
}
