import { escapeXmlAttribute, escapeXmlText, namespaceDeclarations } from '@yangkit/xml';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { allChildren, type DataNode, entries, single } from './data-tree.js';
import { writeValue } from './values.js';

/** RFC 6243 with-defaults retrieval modes. */
export type WithDefaultsMode = 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';

/** Namespace of the RFC 6243 `wd:default` attribute. */
export const WD_NS = 'urn:ietf:params:xml:ns:netconf:default:1.0';

/**
 * Which part of a tree to write: `all` writes the node's whole subtree; a list writes only those
 * children (a filter's result).
 */
export interface Selected {
  readonly node: DataNode;
  readonly children: Selected[] | 'all';
}

/** Options of {@link writeSelection}. */
export interface WriteOptions {
  readonly withDefaults?: WithDefaultsMode;
  /** NMDA config-filter (RFC 8526 3.1.1): true keeps only config nodes, false only state (and ancestors). */
  readonly configFilter?: boolean;
  /** RFC 8342 origin of a node (`intended`, `system`, ...); written where it differs from the parent's. */
  readonly origin?: (node: DataNode) => string | undefined;
  /** RFC 8526 max-depth: levels written, top-level nodes being level 1. */
  readonly maxDepth?: number;
}

/** Namespace of the RFC 8342 ietf-origin module. */
export const ORIGIN_NS = 'urn:ietf:params:xml:ns:yang:ietf-origin';

/** Selects every top-level instance of a tree. */
export function selectAll(root: DataNode): Selected[] {
  return [...allChildren(root)].map((node) => ({ node, children: 'all' }));
}

/**
 * Writes the selected instances as NETCONF XML content (the inside of `<data>`), in schema order
 * for `all` subtrees, declaring each module's namespace where it changes.
 */
export function writeSelection(
  tree: SchemaTree,
  selection: readonly Selected[],
  options: WriteOptions = {},
): string {
  const out: string[] = [];
  const w = new Writer(tree, options.withDefaults ?? 'explicit', out, options);
  for (const s of selection) w.selected(s, '', undefined);
  return out.join('');
}

/** Writes whole subtrees (all children of `root`). */
export function writeTree(tree: SchemaTree, root: DataNode, options: WriteOptions = {}): string {
  return writeSelection(tree, selectAll(root), options);
}

/** Per-schema facts the writer needs for every instance, computed once. */
interface NodeFacts {
  /** Data children in schema order, keys first for lists. */
  readonly order: readonly SchemaNode[];
  /** Values need namespace declarations (identityref, instance-identifier). */
  readonly qualified: boolean;
}

const factsCache = new WeakMap<SchemaNode, NodeFacts>();

function facts(schema: SchemaNode): NodeFacts {
  let f = factsCache.get(schema);
  if (f) return f;
  const data = schema.kind === 'leaf' || schema.kind === 'leaf-list' ? [] : schema.dataChildren();
  const order = schema.kind === 'list' ? [...schema.keyNodes, ...data.filter((c) => !c.isKey)] : [...data];
  const bases = new Set<string>();
  if (schema.type) collectBases(schema.type, bases);
  f = { order, qualified: bases.has('identityref') || bases.has('instance-identifier') };
  factsCache.set(schema, f);
  return f;
}

function collectBases(type: NonNullable<SchemaNode['type']>, into: Set<string>, depth = 0): void {
  if (depth > 16) return;
  into.add(type.base);
  for (const m of type.members ?? []) collectBases(m, into, depth + 1);
  if (type.base === 'leafref' && type.leafrefTarget) {
    const t = (type.leafrefTarget as SchemaNode).type;
    if (t) collectBases(t, into, depth + 1);
  }
}

class Writer {
  constructor(
    readonly tree: SchemaTree,
    readonly mode: WithDefaultsMode,
    readonly out: string[],
    readonly options: WriteOptions,
  ) {}

  /** Written forms of identityref / instance-identifier values, which repeat a lot in big lists. */
  private readonly qualified = new Map<string, [string, string]>();

  private skip(node: DataNode): boolean {
    const f = this.options.configFilter;
    if (f === undefined) return false;
    const schema = node.schema!;
    if (f) return !schema.config;
    return schema.config && node.kids === undefined && !schema.isKey;
  }

  private originAttr(node: DataNode, parentOrigin: string | undefined): [string, string | undefined] {
    const origin = this.options.origin?.(node);
    if (origin === undefined || origin === parentOrigin) return ['', parentOrigin];
    return [` xmlns:or="${ORIGIN_NS}" or:origin="or:${origin}"`, origin];
  }

  /** Levels open while writing, for max-depth. */
  private depth = 0;

  private tooDeep(): boolean {
    return this.options.maxDepth !== undefined && this.depth >= this.options.maxDepth;
  }

  selected(s: Selected, parentNs: string, parentOrigin: string | undefined): void {
    if (this.skip(s.node) || this.tooDeep()) return;
    if (s.children === 'all') {
      this.node(s.node, parentNs, parentOrigin);
      return;
    }
    this.depth++;
    try {
      this.selectedInner(s, parentNs, parentOrigin);
    } finally {
      this.depth--;
    }
  }

  private selectedInner(s: Selected, parentNs: string, parentOrigin: string | undefined): void {
    const schema = s.node.schema!;
    const [attr, origin] = this.originAttr(s.node, parentOrigin);
    this.open(schema, parentNs, attr || undefined);
    for (const c of s.children as Selected[]) this.selected(c, schema.namespace, origin);
    this.out.push('</', schema.name, '>');
  }

  private open(schema: SchemaNode, parentNs: string, extra: string | undefined): void {
    if (schema.namespace === parentNs && !extra) {
      this.out.push(`<${schema.name}>`);
      return;
    }
    this.out.push('<', schema.name);
    if (schema.namespace !== parentNs) this.out.push(' xmlns="', escapeXmlAttribute(schema.namespace), '"');
    if (extra) this.out.push(extra);
    this.out.push('>');
  }

  node(node: DataNode, parentNs: string, parentOrigin: string | undefined): void {
    if (this.skip(node) || this.tooDeep()) return;
    this.depth++;
    try {
      this.nodeInner(node, parentNs, parentOrigin);
    } finally {
      this.depth--;
    }
  }

  private nodeInner(node: DataNode, parentNs: string, parentOrigin: string | undefined): void {
    const schema = node.schema!;
    const [attr, origin] = this.options.origin ? this.originAttr(node, parentOrigin) : ['', parentOrigin];
    switch (schema.kind) {
      case 'leaf':
      case 'leaf-list':
        this.leaf(schema, node.value ?? '', parentNs, false, attr);
        return;
      case 'anydata':
      case 'anyxml':
        this.open(schema, parentNs, attr || undefined);
        this.out.push(node.xml ?? '', '</', schema.name, '>');
        return;
      default:
        this.open(schema, parentNs, attr || undefined);
        this.inner(node, schema, origin);
        this.out.push('</', schema.name, '>');
    }
  }

  /** Children in schema order; list keys first (RFC 7950 7.8.5 for XML). */
  private inner(node: DataNode, schema: SchemaNode, origin: string | undefined): void {
    const ns = schema.namespace;
    const kids = node.kids;
    if (kids === undefined) return;
    const addDefaults = this.mode === 'report-all' || this.mode === 'report-all-tagged';
    if (!addDefaults && kids.size === 1) {
      for (const slot of kids.values()) this.slot(slot, ns, origin);
      return;
    }
    for (const child of facts(schema).order) {
      const slot = kids.get(child);
      if (slot !== undefined) this.slot(slot, ns, origin);
      else if (addDefaults) this.defaults(node, child, ns);
    }
  }

  private slot(slot: DataNode | Map<string, DataNode>, ns: string, origin: string | undefined): void {
    if (slot instanceof Map) for (const n of slot.values()) this.node(n, ns, origin);
    else this.node(slot, ns, origin);
  }

  private leaf(schema: SchemaNode, value: string, parentNs: string, isDefault: boolean, attr = ''): void {
    const isDef =
      isDefault ||
      (this.mode !== 'explicit' &&
        schema.kind === 'leaf' &&
        schema.default !== undefined &&
        schema.default === value);
    if (isDef && this.mode === 'trim' && !isDefault) return;
    let text = value;
    let extra = attr;
    if (facts(schema).qualified) {
      let cached = this.qualified.get(value);
      if (cached === undefined) {
        const w = writeValue(this.tree, schema, value);
        cached = [w.text, w.ns ? namespaceDeclarations(w.ns) : ''];
        this.qualified.set(value, cached);
      }
      text = cached[0];
      extra += cached[1];
    }
    if (isDef && this.mode === 'report-all-tagged') extra += ` xmlns:wd="${WD_NS}" wd:default="true"`;
    if (text === '') {
      this.out.push('<', schema.name);
      if (schema.namespace !== parentNs) this.out.push(' xmlns="', escapeXmlAttribute(schema.namespace), '"');
      this.out.push(extra, '/>');
      return;
    }
    this.open(schema, parentNs, extra);
    this.out.push(escapeXmlText(text), '</', schema.name, '>');
  }

  /** RFC 6243 report-all: default leaves (and non-presence containers holding them) that are absent. */
  private defaults(parent: DataNode, child: SchemaNode, ns: string): void {
    if (this.tooDeep()) return;
    if (!child.config && parent.schema?.config) return;
    if (child.when.length > 0) return;
    if (!inActiveCase(parent, child)) return;
    if (child.kind === 'leaf' && child.default !== undefined) this.leaf(child, child.default, ns, true);
    else if (child.kind === 'container' && child.presence === undefined && hasDefaults(child, 0)) {
      this.open(child, ns, undefined);
      this.depth++;
      for (const c of child.dataChildren())
        if (c.kind === 'leaf' || c.kind === 'container') this.defaults(EMPTY(child), c, child.namespace);
      this.depth--;
      this.out.push('</', child.name, '>');
    }
  }
}

const EMPTY = (schema: SchemaNode): DataNode => ({
  schema,
  parent: undefined,
  key: '',
  value: undefined,
  xml: undefined,
  kids: new Map(),
});

function hasDefaults(schema: SchemaNode, depth: number): boolean {
  if (depth > 16) return false;
  for (const c of schema.dataChildren()) {
    if (c.kind === 'leaf' && c.default !== undefined && c.when.length === 0 && c.parent?.kind !== 'case')
      return true;
    if (c.kind === 'container' && c.presence === undefined && hasDefaults(c, depth + 1)) return true;
  }
  return false;
}

/**
 * A default inside a choice applies only in the active case, or in the default case when no case
 * of the choice is present (RFC 7950 7.9.3).
 */
function inActiveCase(parent: DataNode, child: SchemaNode): boolean {
  for (let s: SchemaNode | undefined = child.parent; s && s !== parent.schema; s = s.parent) {
    if (s.kind !== 'case') continue;
    const choice = s.parent!;
    const active = activeCase(parent, choice);
    if (active !== undefined) return active === s;
    if (choice.default !== s.name) return false;
  }
  return true;
}

/** The case of `choice` that has instances under `parent`. */
export function activeCase(parent: DataNode, choice: SchemaNode): SchemaNode | undefined {
  if (!parent.kids) return undefined;
  for (const schema of parent.kids.keys()) {
    let s: SchemaNode | undefined = schema;
    while (s && s.parent !== choice) s = s.parent;
    if (s && s.parent === choice) return s;
  }
  return undefined;
}

/** The instance of a leaf child, if present (helper for handlers). */
export function leafOf(node: DataNode, schema: SchemaNode): string | undefined {
  return single(node, schema)?.value;
}

/** Entries of a list child (helper for handlers). */
export function listOf(node: DataNode, schema: SchemaNode): DataNode[] {
  return [...(entries(node, schema)?.values() ?? [])];
}
