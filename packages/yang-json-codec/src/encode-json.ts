import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import {
  CHUNK_SIZE,
  type EncodeOptions,
  entriesInOrder,
  groupsToWrite,
  Indenter,
  isEmptyNp,
  isLarge,
  type SystemSort,
} from './encode-options';
import type { Annotation, AnyElement, ChildHolder, DataNode, InstanceTree } from './instance';
import { knownAnnotation } from './known-annotations';
import { valueToJson } from './values';

/** Options of {@link encodeJson}. */
export interface EncodeJsonOptions extends EncodeOptions {
  /** Leave module names out of member names (the server's `--simple-json-names`; not RFC 7951). */
  readonly simpleNames?: boolean;
}

/** Inner nodes this shallow are written by the generator; deeper subtrees in one plain call. */
const GENERATOR_DEPTH = 3;

/**
 * RFC 7951 JSON of an instance tree, as string chunks of about 64 KiB so that a server can stream a large
 * document. Member names carry their module at the top level and where the module changes (RFC 7951
 * section 4); int64/uint64/decimal64 are strings, other numbers numbers (6.1); empty is `[null]` (6.9);
 * identityref values qualified only outside the leaf's module (6.8); lists and leaf-lists are arrays;
 * metadata as `@` and `@name` members (RFC 7952 section 5.2).
 */
export function* encodeJsonChunks(tree: InstanceTree, options: EncodeJsonOptions = {}): Generator<string> {
  const w = new JsonWriter(tree.schema, options);
  yield* w.document(tree);
  if (w.parts.length > 0) yield w.take();
}

/** RFC 7951 JSON of an instance tree as one string (see {@link encodeJsonChunks}). */
export function encodeJson(tree: InstanceTree, options: EncodeJsonOptions = {}): string {
  let out = '';
  for (const chunk of encodeJsonChunks(tree, options)) out += chunk;
  return out;
}

class JsonWriter {
  parts: string[] = [];
  private size = 0;
  private readonly ind: Indenter;
  private readonly colon: string;
  private readonly simple: boolean;
  private readonly keepEmptyNp: boolean;
  private readonly sort: SystemSort;
  private readonly metadata: boolean;
  private readonly wrapper: boolean;
  private readonly annotationTypes: SchemaTree['annotations'];

  constructor(schema: SchemaTree, options: EncodeJsonOptions) {
    this.ind = new Indenter(options.indent);
    this.colon = this.ind.pretty ? ': ' : ':';
    this.simple = options.simpleNames ?? false;
    this.keepEmptyNp = options.returnEmptyNpContainers ?? true;
    this.sort = options.sortSystemOrdered ?? false;
    this.metadata = options.metadata ?? true;
    this.wrapper = options.wrapper ?? false;
    this.annotationTypes = schema.annotations;
  }

  take(): string {
    const s = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return s;
  }

  private w(s: string): void {
    this.parts.push(s);
    this.size += s.length;
  }

  private name(schema: SchemaNode, parentModule: string | undefined): string {
    return this.simple || schema.module === parentModule
      ? `"${schema.name}"`
      : `"${schema.module}:${schema.name}"`;
  }

  *document(tree: InstanceTree): Generator<string> {
    const ind = this.ind;
    const kind = tree.kind;
    // A notification read without its envelope has no eventTime: it is written the same way (libyang's form).
    if (kind === 'notification' && tree.eventTime !== undefined) {
      this.w(
        `{${ind.at(1)}"ietf-restconf:notification"${this.colon}{${ind.at(2)}"eventTime"${this.colon}${JSON.stringify(tree.eventTime)}`,
      );
      yield* this.members(tree, undefined, undefined, 2, false);
      this.w(`${ind.at(1)}}${ind.at(0)}}`);
      return;
    }
    if (kind.endsWith('input') || kind.endsWith('output')) {
      const [part, nodes] = [...tree.children][0] ?? [];
      const op = tree.operation!;
      const name = this.simple ? part?.kind : `${op.module}:${part?.kind}`;
      const node = nodes?.[0];
      if (node === undefined || node.children === undefined || node.children.size === 0) {
        this.w(`{${ind.at(1)}"${name}"${this.colon}{}${ind.at(0)}}`);
        return;
      }
      this.w(`{${ind.at(1)}"${name}"${this.colon}{`);
      yield* this.members(node, part, op.module, 2, true);
      this.w(`${ind.at(1)}}${ind.at(0)}}`);
      return;
    }
    if ((kind === 'data' || kind === 'config') && this.wrapper) {
      const anns = this.metadata ? tree.annotations : undefined;
      const empty = groupsToWrite(tree, undefined, this.keepEmptyNp).length === 0 && anns === undefined;
      if (empty) {
        this.w(`{${ind.at(1)}"ietf-restconf:data"${this.colon}{}${ind.at(0)}}`);
        return;
      }
      this.w(`{${ind.at(1)}"ietf-restconf:data"${this.colon}{`);
      let first = true;
      if (anns !== undefined) {
        this.w(`${ind.at(2)}"@"${this.colon}${this.annotationObject(anns, 2)}`);
        first = false;
      }
      yield* this.members(tree, tree.parent, undefined, 2, first);
      this.w(`${ind.at(1)}}${ind.at(0)}}`);
      return;
    }
    if (groupsToWrite(tree, tree.parent, this.keepEmptyNp).length === 0) {
      this.w('{}');
      return;
    }
    this.w('{');
    // A resource's member is module-qualified like a top-level node (RFC 8040 section 3.5.3).
    yield* this.members(tree, tree.parent, undefined, 1, true);
    this.w(`${ind.at(0)}}`);
  }

  /** Writes the members of an object after the opening brace (and after `@` when `first` is false). */
  private *members(
    holder: ChildHolder,
    schemaParent: SchemaNode | undefined,
    parentModule: string | undefined,
    depth: number,
    first: boolean,
  ): Generator<string> {
    const groups = groupsToWrite(holder, schemaParent, this.keepEmptyNp);
    for (const [schema, nodes] of groups) {
      const entries = entriesInOrder(schema, nodes, this.sort);
      if (!first) this.w(',');
      first = false;
      this.w(`${this.ind.at(depth)}${this.name(schema, parentModule)}${this.colon}`);
      if (schema.kind === 'list' && depth < GENERATOR_DEPTH) {
        this.w('[');
        yield* this.listEntries(entries, depth);
      } else if (schema.kind === 'container' && depth < GENERATOR_DEPTH && isLarge(entries[0]!)) {
        yield* this.inner(entries[0]!, depth);
      } else {
        this.group(schema, entries, depth);
      }
      this.metaSibling(schema, entries, parentModule, depth);
      if (this.size >= CHUNK_SIZE) yield this.take();
    }
  }

  private *listEntries(entries: DataNode[], depth: number): Generator<string> {
    for (let i = 0; i < entries.length; i++) {
      if (i > 0) this.w(',');
      this.w(this.ind.at(depth + 1));
      const entry = entries[i]!;
      if (isLarge(entry)) yield* this.inner(entry, depth + 1);
      else this.object(entry, depth + 1);
      if (this.size >= CHUNK_SIZE) yield this.take();
    }
    this.w(`${this.ind.at(depth)}]`);
  }

  /** An object for a container or list entry, at generator depth. */
  private *inner(node: DataNode, depth: number): Generator<string> {
    if (depth >= GENERATOR_DEPTH) {
      this.object(node, depth);
      return;
    }
    const anns = this.metadata ? node.annotations : undefined;
    const groups = groupsToWrite(node, node.schema, this.keepEmptyNp);
    if (groups.length === 0 && anns === undefined) {
      this.w('{}');
      return;
    }
    this.w('{');
    let first = true;
    if (anns !== undefined) {
      this.w(`${this.ind.at(depth + 1)}"@"${this.colon}${this.annotationObject(anns, depth + 1)}`);
      first = false;
    }
    yield* this.members(node, node.schema, node.schema.module, depth + 1, first);
    this.w(`${this.ind.at(depth)}}`);
  }

  /** Plain (non-generator) writer of one member's value. */
  private group(schema: SchemaNode, entries: DataNode[], depth: number): void {
    switch (schema.kind) {
      case 'leaf': {
        const n = entries[0]!;
        this.w(valueToJson(schema.type!, n.member, n.value ?? '', schema.module));
        return;
      }
      case 'leaf-list': {
        this.w('[');
        for (let i = 0; i < entries.length; i++) {
          const n = entries[i]!;
          this.w(
            `${i > 0 ? ',' : ''}${this.ind.at(depth + 1)}${valueToJson(schema.type!, n.member, n.value ?? '', schema.module)}`,
          );
        }
        this.w(`${this.ind.at(depth)}]`);
        return;
      }
      case 'list': {
        this.w('[');
        for (let i = 0; i < entries.length; i++) {
          this.w(`${i > 0 ? ',' : ''}${this.ind.at(depth + 1)}`);
          this.object(entries[i]!, depth + 1);
        }
        this.w(`${this.ind.at(depth)}]`);
        return;
      }
      case 'anydata':
      case 'anyxml': {
        const n = entries[0]!;
        // Content decoded as data encodes like a container (RFC 7951 section 5.5), its metadata aside.
        if (n.children !== undefined) this.object(n, depth, false);
        else this.anyContent(n.any ?? [], schema.module, depth);
        return;
      }
      default:
        this.object(entries[0]!, depth);
    }
  }

  /** A container or list entry object, written without yielding. */
  private object(node: DataNode, depth: number, ownMetadata = true): void {
    const anns = this.metadata && ownMetadata ? node.annotations : undefined;
    const groups = groupsToWrite(node, node.schema, this.keepEmptyNp);
    if (groups.length === 0 && anns === undefined) {
      this.w('{}');
      return;
    }
    this.w('{');
    let first = true;
    if (anns !== undefined) {
      this.w(`${this.ind.at(depth + 1)}"@"${this.colon}${this.annotationObject(anns, depth + 1)}`);
      first = false;
    }
    const module = node.schema.module;
    for (const [schema, nodes] of groups) {
      if (!first) this.w(',');
      first = false;
      this.w(`${this.ind.at(depth + 1)}${this.name(schema, module)}${this.colon}`);
      this.group(schema, entriesInOrder(schema, nodes, this.sort), depth + 1);
      this.metaSibling(schema, nodes, module, depth + 1);
    }
    this.w(`${this.ind.at(depth)}}`);
  }

  /** `@name` metadata of a leaf, leaf-list (aligned array) or anydata (RFC 7952 5.2.2-5.2.3). */
  private metaSibling(
    schema: SchemaNode,
    entries: DataNode[],
    parentModule: string | undefined,
    depth: number,
  ): void {
    if (!this.metadata) return;
    const k = schema.kind;
    if (k !== 'leaf' && k !== 'leaf-list' && k !== 'anydata' && k !== 'anyxml') return;
    if (!entries.some((e) => e.annotations !== undefined)) return;
    const name =
      this.simple || schema.module === parentModule ? schema.name : `${schema.module}:${schema.name}`;
    this.w(`,${this.ind.at(depth)}"@${name}"${this.colon}`);
    if (k === 'leaf-list') {
      const items = entries.map((e) =>
        e.annotations === undefined ? 'null' : this.annotationObject(e.annotations, depth + 1),
      );
      this.w(`[${items.map((s) => `${this.ind.at(depth + 1)}${s}`).join(',')}${this.ind.at(depth)}]`);
    } else this.w(this.annotationObject(entries[0]!.annotations!, depth));
  }

  private annotationObject(anns: readonly Annotation[], depth: number): string {
    const parts = anns.map((a) => {
      const def = this.annotationTypes.get(`${a.module}:${a.name}`);
      const value =
        def !== undefined
          ? valueToJson(def.type, undefined, a.value, '')
          : knownAnnotation(a.module, a.name)?.json === 'boolean'
            ? a.value
            : JSON.stringify(a.value);
      return `${this.ind.at(depth + 1)}"${a.module}:${a.name}"${this.colon}${value}`;
    });
    return `{${parts.join(',')}${this.ind.at(depth)}}`;
  }

  /** anydata/anyxml content as a JSON object; names qualified where the module changes (RFC 7951 5.5). */
  private anyContent(items: readonly AnyElement[], module: string | undefined, depth: number): void {
    const only = items[0];
    if (items.length === 1 && only !== undefined && only.name === '') {
      this.w(anyScalar(only));
      return;
    }
    const groups = new Map<string, AnyElement[]>();
    for (const it of items) {
      const key = `${it.module ?? ''}\u0000${it.name}`;
      const g = groups.get(key);
      if (g === undefined) groups.set(key, [it]);
      else g.push(it);
    }
    if (groups.size === 0) {
      this.w('{}');
      return;
    }
    this.w('{');
    let first = true;
    for (const g of groups.values()) {
      const it = g[0]!;
      const name =
        this.simple || it.module === module || it.module === undefined ? it.name : `${it.module}:${it.name}`;
      this.w(`${first ? '' : ','}${this.ind.at(depth + 1)}"${name}"${this.colon}`);
      first = false;
      if (g.length > 1) {
        this.w('[');
        g.forEach((e, i) => {
          this.w(`${i > 0 ? ',' : ''}${this.ind.at(depth + 2)}`);
          this.anyItem(e, depth + 2);
        });
        this.w(`${this.ind.at(depth + 1)}]`);
      } else this.anyItem(it, depth + 1);
    }
    this.w(`${this.ind.at(depth)}}`);
  }

  private anyItem(e: AnyElement, depth: number): void {
    if (e.children !== undefined) this.anyContent(e.children, e.module, depth);
    else this.w(anyScalar(e));
  }
}

function anyScalar(e: AnyElement): string {
  switch (e.json) {
    case 'number':
    case 'boolean':
      return e.text ?? 'null';
    case 'null':
      return 'null';
    case 'empty':
      return '[null]';
    default:
      return JSON.stringify(e.text ?? '');
  }
}

/** True when the node would be written (used by the with-defaults and depth utilities). */
export function isWritten(node: DataNode, keepEmptyNp: boolean): boolean {
  return keepEmptyNp || !isEmptyNp(node);
}
