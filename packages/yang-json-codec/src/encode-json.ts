import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { type Group, groupAt, instanceOf, sizeOf } from './child-map';
import {
  CHUNK_SIZE,
  type EncodeOptions,
  entriesInOrder,
  flatText,
  groupsToWrite,
  Indenter,
  isLarge,
  type SystemSort,
  viewedInSteps,
} from './encode-options';
import type { Annotation, AnyElement, ChildHolder, DataNode, InstanceTree } from './instance';
import { knownAnnotation } from './known-annotations';
import { valueToJson } from './values';
import { type Place, startPlace } from './view';

/** Options of {@link encodeJson}. */
export interface EncodeJsonOptions extends EncodeOptions {
  /** Leave module names out of member names (the server's `--simple-json-names`; not RFC 7951). */
  readonly simpleNames?: boolean;
}

/**
 * RFC 7951 JSON of an instance tree, as string chunks of about 64 KiB so that a server can stream a large
 * document. Member names carry their module at the top level and where the module changes (RFC 7951
 * section 4); int64/uint64/decimal64 are strings, other numbers numbers (6.1); empty is `[null]` (6.9);
 * identityref values qualified only outside the leaf's module (6.8); lists and leaf-lists are arrays;
 * metadata as `@` and `@name` members (RFC 7952 section 5.2). A node that holds a large group (a long
 * list), at any depth, is walked by the generator, so no chunk grows much beyond 64 KiB; the rest is
 * written by plain calls. An empty chunk is a step of work that writes nothing yet (a view's filter
 * judging a big list entry by entry ahead of its first entry): a server gives the event loop a turn
 * there when its slice is over (see `nextText`).
 */
export function* encodeJsonChunks(tree: InstanceTree, options: EncodeJsonOptions = {}): Generator<string> {
  const w = new JsonWriter(tree.schema, options);
  yield* w.document(tree, startPlace(tree, options.view));
  if (w.out.length > 0) yield w.take();
}

/** RFC 7951 JSON of an instance tree as one string (see {@link encodeJsonChunks}). */
export function encodeJson(tree: InstanceTree, options: EncodeJsonOptions = {}): string {
  let out = '';
  for (const chunk of encodeJsonChunks(tree, options)) out += chunk;
  return out;
}

/** Identities kept per leaf module by a writer (a schema has a few hundred at most). */
const MAX_IDENTITIES = 4096;

class JsonWriter {
  /** The text written since the last chunk (appended to: V8 joins the pieces once, when it is read). */
  out = '';
  private readonly ind: Indenter;
  private readonly colon: string;
  private readonly simple: boolean;
  private readonly keepEmptyNp: boolean;
  private readonly sort: SystemSort;
  private readonly metadata: boolean;
  private readonly wrapper: boolean;
  private readonly annotationTypes: SchemaTree['annotations'];
  /**
   * What {@link memberStart} made, module-qualified and not, by schema node, then by depth and
   * whether first.
   */
  private readonly qualifiedStarts = new Map<SchemaNode, string[]>();
  private readonly localStarts = new Map<SchemaNode, string[]>();
  /** What {@link valueText} made: identityref values' JSON by leaf module, then value. */
  private readonly identities = new Map<string, Map<string, string>>();

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

  /** The text written since the last chunk, made flat (see {@link flatText}). */
  take(): string {
    const s = flatText(this.out);
    this.out = '';
    return s;
  }

  /**
   * `,` (unless `first`), the indentation of `depth` and the member name of `schema` with its colon
   * in an object of `parentModule` (`"module:name":` when the modules differ, RFC 7951 section 4):
   * made once for each, so that a member costs one concatenation, not three.
   */
  private memberStart(
    schema: SchemaNode,
    parentModule: string | undefined,
    depth: number,
    first: boolean,
  ): string {
    const local = this.simple || schema.module === parentModule;
    const starts = local ? this.localStarts : this.qualifiedStarts;
    let byPlace = starts.get(schema);
    if (byPlace === undefined) starts.set(schema, (byPlace = []));
    const at = 2 * depth + (first ? 1 : 0);
    let start = byPlace[at];
    if (start === undefined) {
      const name = local ? `"${schema.name}"` : `"${schema.module}:${schema.name}"`;
      start = flatText(`${first ? '' : ','}${this.ind.at(depth)}${name}${this.colon}`);
      byPlace[at] = start;
    }
    return start;
  }

  /** Writes the `@` member of a node's own metadata, when it has any; false when it was written. */
  private ownMetadata(anns: readonly Annotation[] | undefined, depth: number): boolean {
    if (anns === undefined) return true;
    this.out += `${this.ind.at(depth)}"@"${this.colon}${this.annotationObject(anns, depth)}`;
    return false;
  }

  /** Closes an object opened with `{`: `}` alone when nothing was written in it (`first`). */
  private close(first: boolean, depth: number): void {
    this.out += first ? '}' : this.ind.closing(depth, '}');
  }

  /** Writes `tree`, at `root` in a view when there is one. */
  *document(tree: InstanceTree, root: Place | undefined): Generator<string> {
    const ind = this.ind;
    const kind = tree.kind;
    // A notification read without its envelope has no eventTime: it is written the same way (libyang's form).
    if (kind === 'notification' && tree.eventTime !== undefined) {
      this.out += `{${ind.at(1)}"ietf-restconf:notification"${this.colon}{${ind.at(2)}"eventTime"${this.colon}${JSON.stringify(tree.eventTime)}`;
      yield* this.members(tree, undefined, undefined, 2, false, root);
      this.out += `${ind.at(1)}}${ind.at(0)}}`;
      return;
    }
    if (kind.endsWith('input') || kind.endsWith('output')) {
      const [part, nodes] = [...tree.children][0] ?? [];
      const op = tree.operation!;
      const name = this.simple ? part?.kind : `${op.module}:${part?.kind}`;
      const node = nodes?.[0];
      this.out += `{${ind.at(1)}"${name}"${this.colon}{`;
      const first =
        node === undefined || part === undefined
          ? true
          : yield* this.members(node, part, op.module, 2, true, root?.child(part));
      this.close(first, 1);
      this.out += `${ind.at(0)}}`;
      return;
    }
    if ((kind === 'data' || kind === 'config') && this.wrapper) {
      this.out += `{${ind.at(1)}"ietf-restconf:data"${this.colon}{`;
      const first = this.ownMetadata(this.metadata ? tree.annotations : undefined, 2);
      this.close(yield* this.members(tree, tree.parent, undefined, 2, first, root), 1);
      this.out += `${ind.at(0)}}`;
      return;
    }
    this.out += '{';
    // A resource's member is module-qualified like a top-level node (RFC 8040 section 3.5.3).
    this.close(yield* this.members(tree, tree.parent, undefined, 1, true, root), 0);
  }

  /**
   * Writes the members of an object after the opening brace (and after `@` when `first` is false);
   * returns whether the object is still without members. `place`: the holder's in a view.
   */
  private *members(
    holder: ChildHolder,
    schemaParent: SchemaNode | undefined,
    parentModule: string | undefined,
    depth: number,
    first: boolean,
    place: Place | undefined,
  ): Generator<string, boolean> {
    yield* viewedInSteps(holder, place, this.keepEmptyNp);
    const groups = groupsToWrite(holder, schemaParent, this.keepEmptyNp, place);
    for (let i = 0; i < groups.length; i += 2) {
      const schema = groups[i] as SchemaNode;
      const entries = entriesInOrder(schema, groupAt(groups, i + 1), this.sort);
      const below = place?.child(schema);
      this.out += this.memberStart(schema, parentModule, depth, first);
      first = false;
      if (schema.kind === 'list') {
        this.out += '[';
        yield* this.listEntries(entries, depth, below);
      } else if (holdsNodes(schema) && isLarge(instanceOf(entries, 0))) {
        // A container, a notification (a YANG Push update), or anydata content decoded as data (a
        // get-config output, an update's content): by the generator.
        yield* this.inner(instanceOf(entries, 0), depth, below, !isAnyContent(schema));
      } else {
        this.group(schema, entries, depth, below);
      }
      this.metaSibling(schema, entries, parentModule, depth);
      if (this.out.length >= CHUNK_SIZE) yield this.take();
    }
    return first;
  }

  private *listEntries(entries: Group, depth: number, place: Place | undefined): Generator<string> {
    for (let i = 0; i < sizeOf(entries); i++) {
      this.out += i > 0 ? this.ind.commaAt(depth + 1) : this.ind.at(depth + 1);
      const entry = instanceOf(entries, i);
      if (isLarge(entry)) yield* this.inner(entry, depth + 1, place);
      else this.object(entry, depth + 1, place);
      if (this.out.length >= CHUNK_SIZE) yield this.take();
    }
    this.out += this.ind.closing(depth, ']');
  }

  /**
   * An object for a container, list entry or anydata holding a large group, written by the
   * generator (an anydata's metadata is its sibling's, RFC 7952 section 5.2.3, not its own).
   */
  private *inner(
    node: DataNode,
    depth: number,
    place: Place | undefined,
    ownMetadata = true,
  ): Generator<string> {
    this.out += '{';
    const first = this.ownMetadata(this.metadata && ownMetadata ? node.annotations : undefined, depth + 1);
    this.close(yield* this.members(node, node.schema, node.schema.module, depth + 1, first, place), depth);
  }

  /** Plain (non-generator) writer of one member's value. */
  private group(schema: SchemaNode, entries: Group, depth: number, place: Place | undefined): void {
    switch (schema.kind) {
      case 'leaf': {
        const n = instanceOf(entries, 0);
        this.out += this.valueText(schema, n);
        return;
      }
      case 'leaf-list': {
        this.out += '[';
        for (let i = 0; i < sizeOf(entries); i++) {
          const n = instanceOf(entries, i);
          this.out += i > 0 ? this.ind.commaAt(depth + 1) : this.ind.at(depth + 1);
          this.out += this.valueText(schema, n);
        }
        this.out += this.ind.closing(depth, ']');
        return;
      }
      case 'list': {
        this.out += '[';
        for (let i = 0; i < sizeOf(entries); i++) {
          this.out += i > 0 ? this.ind.commaAt(depth + 1) : this.ind.at(depth + 1);
          this.object(instanceOf(entries, i), depth + 1, place);
        }
        this.out += this.ind.closing(depth, ']');
        return;
      }
      case 'anydata':
      case 'anyxml': {
        const n = instanceOf(entries, 0);
        // Content decoded as data encodes like a container (RFC 7951 section 5.5), its metadata aside.
        if (n.children !== undefined) this.object(n, depth, place, false);
        else this.anyContent(n.any ?? [], schema.module, depth);
        return;
      }
      default:
        this.object(instanceOf(entries, 0), depth, place);
    }
  }

  /**
   * The JSON value of a leaf or leaf-list entry. An identityref's is kept, by value, for each leaf
   * module: a list repeats the same few identities, each written once rather than for every entry.
   */
  private valueText(schema: SchemaNode, n: DataNode): string {
    const type = schema.type!;
    const value = n.value ?? '';
    if (type.base !== 'identityref') return valueToJson(type, n.member, value, schema.module);
    let byValue = this.identities.get(schema.module);
    if (byValue === undefined) this.identities.set(schema.module, (byValue = new Map()));
    let text = byValue.get(value);
    if (text === undefined) {
      text = valueToJson(type, undefined, value, schema.module);
      if (byValue.size < MAX_IDENTITIES) byValue.set(value, text);
    }
    return text;
  }

  /** A container or list entry object, written without yielding. */
  private object(node: DataNode, depth: number, place: Place | undefined, ownMetadata = true): void {
    this.out += '{';
    let first = this.ownMetadata(this.metadata && ownMetadata ? node.annotations : undefined, depth + 1);
    const module = node.schema.module;
    const groups = groupsToWrite(node, node.schema, this.keepEmptyNp, place);
    for (let i = 0; i < groups.length; i += 2) {
      const schema = groups[i] as SchemaNode;
      const nodes = groupAt(groups, i + 1);
      this.out += this.memberStart(schema, module, depth + 1, first);
      first = false;
      this.group(schema, entriesInOrder(schema, nodes, this.sort), depth + 1, place?.child(schema));
      this.metaSibling(schema, nodes, module, depth + 1);
    }
    this.close(first, depth);
  }

  /** `@name` metadata of a leaf, leaf-list (aligned array) or anydata (RFC 7952 5.2.2-5.2.3). */
  private metaSibling(
    schema: SchemaNode,
    entries: Group,
    parentModule: string | undefined,
    depth: number,
  ): void {
    if (!this.metadata) return;
    const k = schema.kind;
    if (k !== 'leaf' && k !== 'leaf-list' && k !== 'anydata' && k !== 'anyxml') return;
    if (!hasAnnotations(entries)) return;
    const name =
      this.simple || schema.module === parentModule ? schema.name : `${schema.module}:${schema.name}`;
    this.out += `,${this.ind.at(depth)}"@${name}"${this.colon}`;
    if (k === 'leaf-list') {
      const items: string[] = [];
      for (let i = 0; i < sizeOf(entries); i++) {
        const anns = instanceOf(entries, i).annotations;
        items.push(anns === undefined ? 'null' : this.annotationObject(anns, depth + 1));
      }
      this.out += `[${items.map((s) => `${this.ind.at(depth + 1)}${s}`).join(',')}${this.ind.at(depth)}]`;
    } else this.out += this.annotationObject(instanceOf(entries, 0).annotations!, depth);
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
      this.out += anyScalar(only);
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
      this.out += '{}';
      return;
    }
    this.out += '{';
    let first = true;
    for (const g of groups.values()) {
      const it = g[0]!;
      const name =
        this.simple || it.module === module || it.module === undefined ? it.name : `${it.module}:${it.name}`;
      this.out += `${first ? '' : ','}${this.ind.at(depth + 1)}"${name}"${this.colon}`;
      first = false;
      if (g.length > 1) {
        this.out += '[';
        g.forEach((e, i) => {
          this.out += `${i > 0 ? ',' : ''}${this.ind.at(depth + 2)}`;
          this.anyItem(e, depth + 2);
        });
        this.out += `${this.ind.at(depth + 1)}]`;
      } else this.anyItem(it, depth + 1);
    }
    this.out += `${this.ind.at(depth)}}`;
  }

  private anyItem(e: AnyElement, depth: number): void {
    if (e.children !== undefined) this.anyContent(e.children, e.module, depth);
    else this.out += anyScalar(e);
  }
}

function hasAnnotations(entries: Group): boolean {
  for (let i = 0; i < sizeOf(entries); i++) if (instanceOf(entries, i).annotations !== undefined) return true;
  return false;
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

/**
 * Whether instances of `schema` are written as an object of data nodes when they hold children: all
 * but leaves and lists (a container, a notification, an operation's input or output, anydata).
 */
function holdsNodes(schema: SchemaNode): boolean {
  return schema.kind !== 'leaf' && schema.kind !== 'leaf-list' && schema.kind !== 'list';
}

/** anydata or anyxml, whose metadata is its sibling's (RFC 7952 section 5.2.3). */
function isAnyContent(schema: SchemaNode): boolean {
  return schema.kind === 'anydata' || schema.kind === 'anyxml';
}
