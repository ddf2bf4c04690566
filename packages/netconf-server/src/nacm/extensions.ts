import type { SchemaNode } from '@yangkit/yang-schema';
import { NACM_MODULE } from './config.js';

/** The RFC 8341 section 3.5.1 extensions in force on a schema node. */
export interface DenyFlags {
  /** `nacm:default-deny-all` on the node or an ancestor: no default access at all. */
  readonly denyAll: boolean;
  /** `nacm:default-deny-write` (or deny-all) on the node or an ancestor: no default write. */
  readonly denyWrite: boolean;
}

const NONE: DenyFlags = { denyAll: false, denyWrite: false };
const flagsCache = new WeakMap<SchemaNode, DenyFlags>();
const belowCache = new WeakMap<SchemaNode, boolean>();

function own(schema: SchemaNode, name: string): boolean {
  return schema.extensions.some((e) => e.module === NACM_MODULE && e.name === name);
}

/**
 * The default-deny flags of a schema node. A flag marks the node's whole subtree: a node below a
 * `default-deny-all` container is as sensitive as the container (its content would leak otherwise).
 */
export function denyFlags(schema: SchemaNode | undefined): DenyFlags {
  if (schema === undefined) return NONE;
  let f = flagsCache.get(schema);
  if (f !== undefined) return f;
  const up = denyFlags(schema.parent);
  const denyAll = up.denyAll || own(schema, 'default-deny-all');
  const denyWrite = denyAll || up.denyWrite || own(schema, 'default-deny-write');
  f = denyAll === up.denyAll && denyWrite === up.denyWrite ? up : { denyAll, denyWrite };
  flagsCache.set(schema, f);
  return f;
}

/** Whether a node of `schema`'s subtree (itself included) carries `default-deny-all`. */
export function denyAllWithin(schema: SchemaNode): boolean {
  let found = belowCache.get(schema);
  if (found !== undefined) return found;
  found = own(schema, 'default-deny-all');
  if (!found && schema.kind !== 'leaf' && schema.kind !== 'leaf-list') {
    for (const c of schema.dataChildren()) {
      if (denyAllWithin(c)) {
        found = true;
        break;
      }
    }
  }
  belowCache.set(schema, found);
  return found;
}
