import type { SourceLocation } from './errors';
import type {
  ExtensionInstance,
  MustConstraint,
  SchemaNode,
  SchemaNodeKind,
  Status,
  WhenCondition,
} from './schema-types';
import type { YangType } from './types/yang-type';

const TRANSPARENT: ReadonlySet<SchemaNodeKind> = new Set(['choice', 'case', 'input', 'output']);

/**
 * The compiler's node: mutable while the module set is compiled, frozen (with its arrays) by
 * {@link freezeNode} before the tree is handed out.
 */
export class NodeImpl implements SchemaNode {
  parent: NodeImpl | undefined;
  children: NodeImpl[] = [];
  config = true;
  /** `config` as written on this node, before inheritance. */
  explicitConfig: boolean | undefined;
  isOperation = false;
  mandatory = false;
  presence?: string;
  keys: string[] = [];
  keyNodes: NodeImpl[] = [];
  isKey = false;
  minElements = 0;
  maxElements = Number.POSITIVE_INFINITY;
  orderedBy: 'system' | 'user' = 'system';
  unique: string[][] = [];
  default?: string;
  defaults: string[] = [];
  type?: YangType;
  units?: string;
  must: MustConstraint[] = [];
  when: WhenCondition[] = [];
  status: Status = 'current';
  ifFeatures: string[] = [];
  extensions: ExtensionInstance[] = [];
  description?: string;
  reference?: string;
  schemaPath = '';
  dataPath = '';
  grouping?: string;
  location?: SourceLocation;
  /** Prefix map of the module where the default(s) were written (identityref defaults resolve in it). */
  defaultPrefixes: ReadonlyMap<string, string> | undefined;
  /** Set while compiling for nodes under a false if-feature; they are pruned before finalizing. */
  disabled = false;
  /** Data-child lookup table, built when the node is frozen. */
  dataIndex: Map<string, NodeImpl> | undefined;

  constructor(
    readonly kind: SchemaNodeKind,
    readonly name: string,
    readonly module: string,
    readonly namespace: string,
    readonly prefix: string,
  ) {}

  dataChildren(): readonly NodeImpl[] {
    const out: NodeImpl[] = [];
    collectData(this, out);
    return out;
  }

  dataChild(module: string, name: string): NodeImpl | undefined {
    if (this.dataIndex) return this.dataIndex.get(`${module}:${name}`);
    return findData(this, module, name);
  }

  child(module: string, name: string): NodeImpl | undefined {
    for (const c of this.children) if (c.name === name && c.module === module) return c;
    return undefined;
  }
}

function collectData(node: NodeImpl, out: NodeImpl[]): void {
  for (const c of node.children) {
    if (TRANSPARENT.has(c.kind)) collectData(c, out);
    else out.push(c);
  }
}

function findData(node: NodeImpl, module: string, name: string): NodeImpl | undefined {
  for (const c of node.children) {
    if (TRANSPARENT.has(c.kind)) {
      const found = findData(c, module, name);
      if (found) return found;
    } else if (c.name === name && c.module === module) return c;
  }
  return undefined;
}

/**
 * Freezes a type and everything it holds (restrictions, enums, bits, members). Compiled RegExp objects stay
 * unfrozen (they are never global or sticky, so matching does not write to them), and a leafref target is
 * a node, frozen on its own.
 */
export function freezeType(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (value instanceof RegExp || value instanceof NodeImpl) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) freezeType(inner);
}

/** Removes disabled nodes (and so their subtrees) from a node list, recursively and in place. */
export function pruneDisabled(list: NodeImpl[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const n = list[i]!;
    if (n.disabled) list.splice(i, 1);
    else pruneDisabled(n.children);
  }
}

/** True for kinds that are not data nodes in instance data (choice, case, input, output). */
export function isTransparent(kind: SchemaNodeKind): boolean {
  return TRANSPARENT.has(kind);
}

/** Freezes a node and its arrays recursively, after building its data-child index. */
export function freezeNode(node: NodeImpl): void {
  for (const c of node.children) freezeNode(c);
  Object.freeze(node.children);
  Object.freeze(node.keys);
  Object.freeze(node.keyNodes);
  for (const u of node.unique) Object.freeze(u);
  Object.freeze(node.unique);
  Object.freeze(node.defaults);
  Object.freeze(node.ifFeatures);
  for (const m of node.must) Object.freeze(m);
  Object.freeze(node.must);
  for (const w of node.when) Object.freeze(w);
  Object.freeze(node.when);
  for (const e of node.extensions) Object.freeze(e);
  Object.freeze(node.extensions);
  if (node.type) freezeType(node.type);
  const index = new Map<string, NodeImpl>();
  for (const c of node.dataChildren())
    if (!index.has(`${c.module}:${c.name}`)) index.set(`${c.module}:${c.name}`, c);
  node.dataIndex = index;
  Object.freeze(node);
}
