import type { SchemaNode } from '@yangkit/yang-schema';
import { firstChild } from './child-map';
import type { DataNode } from './instance';

/** A list key value, canonical as the tree stores it. */
export interface PathKey {
  readonly name: string;
  readonly value: string;
}

/**
 * One step of an instance path from the document root: a schema node, plus the keys of a list entry or
 * the value of a leaf-list entry. A step of a list without keys (or of a leaf-list without value) names
 * every entry.
 */
export interface PathStep {
  readonly schema: SchemaNode;
  /** List entry keys in key order; absent for a whole list and for other nodes. */
  readonly keys?: readonly PathKey[];
  /** Leaf-list entry value; absent for a whole leaf-list and for other nodes. */
  readonly value?: string;
}

/**
 * The step that names one instance: its keys for a list entry, its value for a leaf-list entry (keys an
 * entry lacks while it is being decoded are left out).
 */
export function stepOf(node: DataNode): PathStep {
  const s = node.schema;
  if (s.kind === 'leaf-list' && node.value !== undefined) return { schema: s, value: node.value };
  if (s.kind === 'list' && s.keyNodes.length > 0) {
    const keys: PathKey[] = [];
    for (const k of s.keyNodes) {
      const value = firstChild(node.children, k)?.value;
      if (value !== undefined) keys.push({ name: k.name, value });
    }
    return { schema: s, keys };
  }
  return { schema: s };
}

/** The steps from the document root to `node` (input/output and notifications included), O(depth). */
export function pathOf(node: DataNode): PathStep[] {
  const steps: PathStep[] = [];
  for (let n: DataNode | undefined = node; n !== undefined; n = n.parent) steps.push(stepOf(n));
  return steps.reverse();
}

/**
 * The identity of an entry among its siblings: the key values of a list entry (joined by NUL, which YANG
 * strings cannot hold), the value of a leaf-list entry; undefined for other nodes and keyless lists.
 */
export function entryKey(node: DataNode): string | undefined {
  const s = node.schema;
  if (s.kind === 'leaf-list') return node.value;
  if (s.kind !== 'list') return undefined;
  const keys = s.keyNodes;
  if (keys.length === 0) return undefined;
  if (keys.length === 1) return firstChild(node.children, keys[0]!)?.value;
  let out = '';
  for (let i = 0; i < keys.length; i++) {
    const v = firstChild(node.children, keys[i]!)?.value;
    if (v === undefined) return undefined;
    out = i === 0 ? v : `${out}\u0000${v}`;
  }
  return out;
}

/** The {@link entryKey} a step names, or undefined when it names no single entry. */
export function stepKey(step: PathStep): string | undefined {
  const s = step.schema;
  if (s.kind === 'leaf-list') return step.value;
  if (s.kind !== 'list' || step.keys === undefined) return undefined;
  const keyNodes = s.keyNodes;
  if (keyNodes.length === 0 || step.keys.length !== keyNodes.length) return undefined;
  let out = '';
  for (let i = 0; i < keyNodes.length; i++) {
    // Keys usually come in key order; look the name up when they do not.
    const name = keyNodes[i]!.name;
    const k = step.keys[i]!.name === name ? step.keys[i] : keyNamed(step.keys, name);
    if (k === undefined) return undefined;
    out = i === 0 ? k.value : `${out}\u0000${k.value}`;
  }
  return out;
}

/** The key of `keys` named `name` (a loop, not a closure: a lookup on every step allocates nothing). */
function keyNamed(keys: readonly PathKey[], name: string): PathKey | undefined {
  for (const k of keys) if (k.name === name) return k;
  return undefined;
}

/** True when the step names every entry of a list or leaf-list rather than one. */
export function isWholeStep(step: PathStep): boolean {
  const kind = step.schema.kind;
  return (kind === 'list' && step.keys === undefined) || (kind === 'leaf-list' && step.value === undefined);
}

/** True when both steps name the same instance (or the same whole list). */
export function sameStep(a: PathStep, b: PathStep): boolean {
  if (a.schema !== b.schema || a.value !== b.value) return false;
  if (a.keys === undefined || b.keys === undefined) return a.keys === b.keys;
  return stepKey(a) === stepKey(b);
}

/** True when both paths name the same instance. */
export function samePath(a: readonly PathStep[], b: readonly PathStep[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameStep(a[i]!, b[i]!)) return false;
  return true;
}
