import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { addChild, CompactChildMap, fitGroup, type Group } from './child-map';
import { attach, DecodeContext, type DecodeOptions } from './decoder';
import { type DocumentTarget, resolveDocument } from './document';
import { operationOfJson } from './document-operation';
import { CodecError } from './errors';
import type { Annotation, AnyElement, ChildMap, DataNode, InstanceTree } from './instance';
import { jsonDepth } from './json-depth';
import { JsonStream, type JsonTextPieces, readJsonSteps } from './json-text';
import { type NodeInfo, nodeInfo, splitName, structureInfo, topLevelInfo } from './schema-view';
import { finishSteps, type Steps } from './steps';
import { valueFromJson } from './values';

type JsonObject = Record<string, unknown>;
/** A JSON object, parsed or read as it comes. */
type ObjectValue = JsonObject | JsonStream;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonStream);
}

function isObjectValue(v: unknown): v is ObjectValue {
  return isObject(v) || (v instanceof JsonStream && !v.array);
}

/** Whether `json` is JSON text in pieces (an array is a parsed value: a document is never an array). */
function isTextPieces(json: unknown): json is JsonTextPieces {
  return (
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    !(json instanceof JsonStream) &&
    typeof (json as Partial<JsonTextPieces>)[Symbol.iterator] === 'function'
  );
}

/** Kinds of schema node whose JSON value is decoded whole (a container's members are decoded as read). */
const VALUE_KINDS: ReadonlySet<string> = new Set(['list', 'leaf-list', 'leaf', 'anydata', 'anyxml']);

/** Kinds of document decoded as their text is read (the others are read whole first). */
const STREAMED_DOCUMENTS: ReadonlySet<string> = new Set(['data', 'config', 'resource', 'yang-data']);

/** The RFC 8040 section 3.5.3 wrapper of a whole datastore's content. */
const RESTCONF_DATA = 'ietf-restconf:data';

/** What one level of members is decoded into, and its `@` members once read. */
interface Level {
  readonly schemaParent: SchemaNode | undefined;
  readonly info: NodeInfo;
  readonly parent: DataNode | undefined;
  readonly into: ChildMap;
  readonly depth: number;
  readonly topLevel: boolean;
  readonly notifications: boolean;
  meta: JsonObject | undefined;
}

function tooBig(size: string | number, maxSize: number): CodecError {
  return new CodecError(
    'LIMIT_EXCEEDED',
    `JSON input of ${size} characters exceeds the limit of ${maxSize}`,
    {
      errorTag: 'too-big',
    },
  );
}

/** One step with nothing in it: a turn given back between the members of a stream. */
function* aStep(): Steps<void> {
  yield;
}

/** A `@` member read whole into `meta`. */
function* metadataSteps(meta: JsonObject, key: string, value: JsonStream): Steps<void> {
  meta[key] = yield* value.toValue();
}

/** `pieces`, refused once they hold more than `maxSize` characters. */
function* sizeLimited(pieces: JsonTextPieces, maxSize: number): Generator<string> {
  let size = 0;
  for (const piece of pieces) {
    size += piece.length;
    if (size > maxSize) throw tooBig(`more than ${maxSize}`, maxSize);
    yield piece;
  }
}

/**
 * Decodes RFC 7951 JSON (text or an already parsed value) into an instance tree, checking names against
 * the schema (module-qualified as RFC 7951 section 4 requires, or bare names with `simpleNames`), JSON
 * types and values against the YANG types (RFC 7951 section 6) and list keys. RFC 7952 metadata is read
 * from `@` members (containers, list entries) and `@name` siblings (leafs, leaf-lists, anydata).
 * Accepted shapes: data/config `{ "mod:top": ... }` or `{ "ietf-restconf:data": { ... } }`; resource
 * `{ "mod:node": ... }`; rpc/action `{ "mod:input": { ... } }` / `{ "mod:output": { ... } }`, or libyang's
 * `{ "mod:rpc": { ... } }` and the data nodes leading to an action; notification
 * `{ "ietf-restconf:notification": { "eventTime": ..., "mod:event": { ... } } }` or `{ "mod:event": { ... } }`
 * alone; yang-data `{ "ietf-restconf:errors": { ... } }`.
 */
export function decodeJson(
  schema: SchemaTree,
  json: string | JsonTextPieces | unknown,
  options: DecodeOptions = {},
): InstanceTree {
  return finishSteps(decodeJsonSteps(schema, json, options));
}

/**
 * {@link decodeJson} in steps (see {@link Steps}): the same decode, yielding every few hundred data
 * nodes (and every slice of the text while it is parsed), so that a server can give the event loop
 * back while a big body decodes.
 */
export function* decodeJsonSteps(
  schema: SchemaTree,
  json: string | JsonTextPieces | unknown,
  options: DecodeOptions = {},
): Steps<InstanceTree> {
  const ctx = new DecodeContext(schema, options);
  const maxSize = options.maxSize ?? 256 * 1024 * 1024;
  let value = json;
  if (typeof json === 'string' || isTextPieces(json)) {
    if (typeof json === 'string' && json.length > maxSize) throw tooBig(json.length, maxSize);
    // Each data level is at most two JSON levels (a list's array and entry object): a bound that
    // refuses while reading what the decoder would refuse after it.
    // A long container is read as it is decoded, member by member: neither the text nor its parsed
    // value is ever held whole beside the instance tree.
    value = yield* readJsonSteps(
      typeof json === 'string' ? json : sizeLimited(json, maxSize),
      2 * ctx.maxDepth + 2,
    );
  }
  const target = resolveDocument(schema, options);
  return yield* new JsonDecoder(ctx, options.simpleNames ?? false).document(value, target);
}

class JsonDecoder {
  private readonly ctx: DecodeContext;
  private readonly tree: SchemaTree;
  private readonly simpleNames: boolean;

  constructor(ctx: DecodeContext, simpleNames: boolean) {
    this.ctx = ctx;
    this.tree = ctx.tree;
    this.simpleNames = simpleNames;
  }

  private structure(message: string): CodecError {
    return this.ctx.error('BAD_ELEMENT', 'bad-element', message, { json: '/', xml: '/' });
  }

  *document(json: unknown, target: DocumentTarget): Steps<InstanceTree> {
    let value = json;
    // Data, a resource and yang-data are decoded as read; an operation or a notification is read whole.
    if (value instanceof JsonStream && !STREAMED_DOCUMENTS.has(target.kind)) value = yield* value.toValue();
    if (!isObjectValue(value)) throw this.structure('a YANG JSON document is a JSON object');
    const children: ChildMap = new CompactChildMap();
    const doc: InstanceTree = {
      schema: this.tree,
      kind: target.kind,
      parent: target.parent,
      operation: target.operation,
      eventTime: undefined,
      children,
      annotations: undefined,
    };
    switch (target.kind) {
      case 'data':
      case 'config':
        doc.annotations = this.ownMetadata(
          value instanceof JsonStream
            ? yield* this.streamedData(value, children)
            : yield* this.data(value, children),
        );
        break;
      case 'resource': {
        const info = target.parent === undefined ? topLevelInfo(this.tree) : nodeInfo(target.parent);
        yield* this.members(value, target.parent, info, undefined, children, 0, target.parent === undefined);
        break;
      }
      case 'yang-data': {
        const info = structureInfo(target.structure ?? []);
        yield* this.members(value, undefined, info, undefined, children, 0, true);
        break;
      }
      // Read whole above: a parsed object.
      case 'notification':
        yield* this.notification(value as JsonObject, doc);
        break;
      default:
        yield* this.operation(value as JsonObject, target, children);
    }
    return doc;
  }

  /** The members of a data document: `{ "ietf-restconf:data": { ... } }` or the content alone. */
  private *data(value: JsonObject, children: ChildMap): Steps<JsonObject | undefined> {
    const keys = Object.keys(value);
    let content = value;
    if (keys.length === 1 && keys[0] === RESTCONF_DATA) {
      const inner = value[RESTCONF_DATA];
      if (!isObject(inner)) throw this.structure(`"${RESTCONF_DATA}" must be a JSON object`);
      content = inner;
    }
    return yield* this.members(content, undefined, topLevelInfo(this.tree), undefined, children, 0, true);
  }

  /**
   * {@link data} of a document read as it is decoded: a first "ietf-restconf:data" member is decoded
   * as the content, unless another member follows it (the content is then the document, as when it
   * is given whole).
   */
  private *streamedData(value: JsonStream, children: ChildMap): Steps<JsonObject | undefined> {
    const info = topLevelInfo(this.tree);
    const level = this.level(undefined, info, undefined, children, 0, true, false);
    let first = true;
    /** The first member, "ietf-restconf:data", while it is the only one, and its `@` members. */
    let wrapped: { readonly value: unknown; meta: JsonObject | undefined } | undefined;
    yield* value.each((key, member) => {
      if (first && key === RESTCONF_DATA) {
        const only = { value: member, meta: undefined as JsonObject | undefined };
        wrapped = only;
        first = false;
        if (!isObjectValue(member)) return undefined; // refused below if it stays the only member
        return this.wrappedDataSteps(only, member, info, children);
      }
      first = false;
      if (wrapped !== undefined) {
        // The content is the document: "ietf-restconf:data" is a member of it, unknown to the schema.
        wrapped = undefined;
        children.clear();
        this.resolve(RESTCONF_DATA, info, undefined, undefined, true);
      }
      return this.member(level, key!, member);
    });
    if (wrapped === undefined) return this.metadata(level);
    if (!isObjectValue(wrapped.value)) throw this.structure(`"${RESTCONF_DATA}" must be a JSON object`);
    return wrapped.meta;
  }

  /** The members of "ietf-restconf:data" as the document's, its `@` members kept in `wrapped`. */
  private *wrappedDataSteps(
    wrapped: { meta: JsonObject | undefined },
    data: ObjectValue,
    info: NodeInfo,
    children: ChildMap,
  ): Steps<void> {
    wrapped.meta = yield* this.members(data, undefined, info, undefined, children, 0, true);
  }

  /** The metadata of a document (RFC 7952 section 5.2): its `@` member. */
  private ownMetadata(members: JsonObject | undefined): Annotation[] | undefined {
    const meta = members?.['@'];
    return isObject(meta) ? this.annotationObject(meta, undefined, undefined) : undefined;
  }

  private *notification(value: JsonObject, doc: InstanceTree): Steps<void> {
    const keys = Object.keys(value);
    if (keys.length !== 1) {
      throw this.structure(
        'a JSON notification is one "ietf-restconf:notification" object, or the one event member without it',
      );
    }
    const rest: JsonObject = {};
    const body = value['ietf-restconf:notification'];
    if (body === undefined) {
      // The event alone, as libyang reads it (yanglint -t notif): no envelope, so no eventTime.
      rest[keys[0]!] = value[keys[0]!];
    } else {
      if (!isObject(body)) throw this.structure('"ietf-restconf:notification" must be a JSON object');
      const eventTime = body.eventTime;
      if (typeof eventTime !== 'string')
        throw this.structure('"ietf-restconf:notification" lacks "eventTime"');
      doc.eventTime = eventTime;
      for (const k of Object.keys(body)) if (k !== 'eventTime') rest[k] = body[k];
    }
    // Notifications are top-level statements or sit inside data nodes (RFC 7950 7.16).
    const info = topLevelInfo(this.tree);
    for (const k of Object.keys(rest)) {
      const [module, name] = splitName(k);
      const top = module === undefined ? undefined : this.tree.topLevel(module, name);
      const n = top?.kind === 'notification' ? top : undefined;
      if (n !== undefined) {
        const node = this.ctx.node(n, undefined);
        attach(doc.children, node);
        const v = rest[k];
        if (!isObject(v)) throw this.structure(`notification "${name}" must be a JSON object`);
        yield* this.members(v, n, nodeInfo(n), node, node.children!, 1, false);
        delete rest[k];
      }
    }
    if (Object.keys(rest).length > 0)
      yield* this.members(rest, undefined, info, undefined, doc.children, 0, true, true);
  }

  private *operation(value: JsonObject, target: DocumentTarget, children: ChildMap): Steps<void> {
    const part = target.part!;
    const op = target.operation!;
    const keys = Object.keys(value);
    const node = this.ctx.node(part, undefined);
    attach(children, node);
    if (keys.length === 0) return;
    const [module, name] = splitName(keys[0]!);
    let body: unknown;
    if (keys.length === 1 && name === part.kind && (module === undefined || module === op.module)) {
      body = value[keys[0]!];
    } else {
      // libyang's form: the operation's own member, for an action inside the data nodes leading to it.
      const named = operationOfJson(this.tree, value);
      if (named?.operation !== op) {
        throw this.structure(
          `${op.kind} ${part.kind} is one "${op.module}:${part.kind}" member, or the ${op.kind} "${op.module}:${op.name}" itself`,
        );
      }
      body = named.content;
    }
    if (!isObject(body)) throw this.structure(`the ${op.kind} ${part.kind} must be a JSON object`);
    yield* this.members(body, part, nodeInfo(part), node, node.children!, 1, false);
  }

  /** Resolves a member name: `module:name`, or a bare name in the parent's module (RFC 7951 section 4). */
  private resolve(
    key: string,
    info: NodeInfo,
    schemaParent: SchemaNode | undefined,
    parent: DataNode | undefined,
    topLevel: boolean,
  ): SchemaNode | undefined {
    // Fast paths: an unqualified child of the parent's module, or an exact `module:name`.
    const direct = topLevel ? undefined : (info.sameModule.get(key) ?? info.byQName.get(key));
    if (direct !== undefined) return direct;
    const [module, name] = splitName(key);
    if (module !== undefined) {
      const found = info.byQName.get(key);
      if (found !== undefined) return found;
      if (!this.ctx.strict) return undefined;
      if (this.tree.moduleByName(module) === undefined) {
        const path = this.ctx.childPath(parent, { module: undefined, name });
        throw this.ctx.error(
          'UNKNOWN_NAMESPACE',
          'unknown-namespace',
          `member "${key}" names module "${module}" that the schema does not have (${path.json})`,
          path,
          {
            errorInfo: { 'bad-element': name, 'bad-namespace': module },
          },
        );
      }
      throw this.ctx.unknown(parent, module, name, `in ${describe(parent)}`);
    }
    if (!topLevel && schemaParent !== undefined) {
      const found = info.byQName.get(`${schemaParent.module}:${name}`);
      if (found !== undefined) return found;
    }
    if (this.simpleNames) {
      const candidates = info.byName.get(name);
      if (candidates?.length === 1) return candidates[0];
      if (candidates !== undefined && candidates.length > 1) {
        const path = this.ctx.childPath(parent, { module: undefined, name });
        throw this.ctx.error(
          'BAD_ELEMENT',
          'bad-element',
          `member "${name}" is ambiguous without a module name (${path.json})`,
          path,
          {
            errorInfo: { 'bad-element': name },
          },
        );
      }
    }
    if (!this.ctx.strict) return undefined;
    if (topLevel && info.byName.has(name)) {
      const path = this.ctx.childPath(parent, { module: undefined, name });
      throw this.ctx.error(
        'UNKNOWN_NAMESPACE',
        'unknown-namespace',
        `top-level member "${name}" must carry its module name (RFC 7951 section 4)`,
        path,
        {
          errorInfo: { 'bad-element': name },
        },
      );
    }
    throw this.ctx.unknown(parent, schemaParent?.module, name, `in ${describe(parent)}`);
  }

  /**
   * Decodes the members of a JSON object under `parent`; returns its `@` members (RFC 7952 metadata),
   * read once the others are.
   */
  private *members(
    obj: ObjectValue,
    schemaParent: SchemaNode | undefined,
    info: NodeInfo,
    parent: DataNode | undefined,
    into: ChildMap,
    depth: number,
    topLevel: boolean,
    notifications = false,
  ): Steps<JsonObject | undefined> {
    const level = this.level(schemaParent, info, parent, into, depth, topLevel, notifications);
    if (this.ctx.stepDue()) yield;
    if (obj instanceof JsonStream)
      yield* obj.each((key, value) => this.member(level, key!, value, true) ?? this.stepIfDue());
    else {
      for (const key in obj) {
        const steps = this.member(level, key, obj[key]);
        if (steps !== undefined) yield* steps;
      }
    }
    return this.metadata(level);
  }

  /**
   * {@link members} of an object the reader parsed from one piece of the text (see `JsonStream`), at
   * once: it is at most a piece long, so no steps are needed, and none are made: a generator for each
   * entry and level, with its results, was a third of what a decode of 100,000 interfaces allocated.
   */
  private membersNow(
    obj: JsonObject,
    schemaParent: SchemaNode,
    parent: DataNode,
    depth: number,
    notifications: boolean,
  ): JsonObject | undefined {
    const level = this.level(
      schemaParent,
      nodeInfo(schemaParent),
      parent,
      parent.children!,
      depth,
      false,
      notifications,
    );
    for (const key in obj) {
      const steps = this.member(level, key, obj[key], true);
      if (steps !== undefined) finishSteps(steps);
    }
    return this.metadata(level);
  }

  /** The members of an object under `parent` at `depth`, refused past the deepest nesting accepted. */
  private level(
    schemaParent: SchemaNode | undefined,
    info: NodeInfo,
    parent: DataNode | undefined,
    into: ChildMap,
    depth: number,
    topLevel: boolean,
    notifications: boolean,
  ): Level {
    if (depth > this.ctx.maxDepth) throw this.structure(`nesting deeper than ${this.ctx.maxDepth}`);
    return { schemaParent, info, parent, into, depth, topLevel, notifications, meta: undefined };
  }

  /** A step once a few hundred nodes were decoded since the last one (see `stepDue`), else none. */
  private stepIfDue(): Steps<void> | undefined {
    return this.ctx.stepDue() ? aStep() : undefined;
  }

  /** Reads the `@name` members of a level once its other members are read; returns them. */
  private metadata(level: Level): JsonObject | undefined {
    const { meta } = level;
    if (meta !== undefined) {
      this.siblingMetadata(meta, level.info, level.schemaParent, level.parent, level.into, level.topLevel);
    }
    return meta;
  }

  /**
   * Decodes one member of an object: at once, or in the steps returned. `parsed` when the reader parsed
   * `value` from one piece of the text: its lists and containers are then decoded at once.
   */
  private member(level: Level, key: string, value: unknown, parsed = false): Steps<void> | undefined {
    const { parent, into, notifications } = level;
    if (key.charCodeAt(0) === 0x40 /* @ */) {
      const meta = (level.meta ??= {});
      if (!(value instanceof JsonStream)) meta[key] = value;
      else {
        return metadataSteps(meta, key, value);
      }
      return undefined;
    }
    const schema = this.resolveMaybeNotification(
      key,
      level.info,
      level.schemaParent,
      parent,
      level.topLevel,
      notifications,
    );
    if (schema === undefined) return undefined;
    this.ctx.checkConfig(parent, schema);
    if (into.has(schema)) throw this.ctx.duplicate(parent, schema);
    if (value instanceof JsonStream) {
      // A long list or container is decoded as it is read; anything else is read whole first.
      if (value.array && schema.kind === 'list') return this.streamedList(value, schema, level);
      if (!value.array && !VALUE_KINDS.has(schema.kind)) return this.container(value, schema, level);
      return this.readWhole(level, key, value);
    }
    switch (schema.kind) {
      case 'list': {
        if (!Array.isArray(value)) throw this.shape(parent, schema, 'a JSON array of entries');
        if (value.length === 0) return undefined; // no entries: RFC 7951 5.4 arrays only carry instances
        if (!parsed) return this.list(value, schema, level);
        for (const item of value) this.listEntryNow(item, schema, level);
        fitGroup(level.into, schema);
        return undefined;
      }
      case 'leaf-list': {
        if (!Array.isArray(value)) throw this.shape(parent, schema, 'a JSON array of values');
        if (value.length === 0) return undefined;
        return this.leafList(value, schema, level);
      }
      case 'leaf':
        addChild(into, this.leaf(schema, parent, value));
        return undefined;
      case 'anydata':
      case 'anyxml':
        return this.any(value, schema, level);
      default:
        if (!parsed) return this.container(value, schema, level);
        this.containerNow(value, schema, level);
        return undefined;
    }
  }

  /** A member read whole before it is decoded. */
  private *readWhole(level: Level, key: string, value: JsonStream): Steps<void> {
    const steps = this.member(level, key, yield* value.toValue());
    if (steps !== undefined) yield* steps;
  }

  private *list(value: unknown[], schema: SchemaNode, level: Level): Steps<void> {
    for (const item of value) yield* this.listEntry(item, schema, level);
    fitGroup(level.into, schema);
  }

  /** A list whose entries are decoded as they are read, an entry read whole at once. */
  private *streamedList(value: JsonStream, schema: SchemaNode, level: Level): Steps<void> {
    yield* value.each((_, item) => {
      if (item instanceof JsonStream) return this.listEntry(item, schema, level);
      this.listEntryNow(item, schema, level);
      return this.stepIfDue();
    });
    fitGroup(level.into, schema);
  }

  private *leafList(value: unknown[], schema: SchemaNode, level: Level): Steps<void> {
    for (const item of value) {
      const n = this.leaf(schema, level.parent, item);
      this.ctx.checkLeafListValue(n, addChild(level.into, n));
      if (this.ctx.stepDue()) yield;
    }
    fitGroup(level.into, schema);
  }

  private *any(value: unknown, schema: SchemaNode, level: Level): Steps<void> {
    const n = this.ctx.node(schema, level.parent);
    const data = yield* this.anyAsData(value, n, level.depth + 1);
    if (data !== undefined) n.children = data;
    else n.any = this.anyValue(value, schema.module, level.depth + 1, level.parent, schema);
    addChild(level.into, n);
  }

  private *container(value: unknown, schema: SchemaNode, level: Level): Steps<void> {
    const n = this.newContainer(value, schema, level);
    const meta = yield* this.members(
      value as ObjectValue, // checked by newContainer
      schema,
      nodeInfo(schema),
      n,
      n.children!,
      level.depth + 1,
      false,
      level.notifications,
    );
    this.ownAnnotations(n, meta);
  }

  /** {@link container} of a value the reader parsed (see {@link membersNow}). */
  private containerNow(value: unknown, schema: SchemaNode, level: Level): void {
    const n = this.newContainer(value, schema, level);
    this.ownAnnotations(
      n,
      this.membersNow(value as JsonObject, schema, n, level.depth + 1, level.notifications),
    );
  }

  /** The node of a container (or notification) whose value is `value`, added to its parent. */
  private newContainer(value: unknown, schema: SchemaNode, level: Level): DataNode {
    if (!isObjectValue(value)) throw this.shape(level.parent, schema, 'a JSON object');
    const n = this.ctx.node(schema, level.parent);
    addChild(level.into, n);
    return n;
  }

  /** The `@` member of a container or list entry read with its members (RFC 7952 section 5.2.1). */
  private ownAnnotations(node: DataNode, meta: JsonObject | undefined): void {
    if (isObject(meta?.['@'])) node.annotations = this.annotationObject(meta['@'], node, undefined);
  }

  /** One entry of a list, decoded into its group, with its keys checked against the others'. */
  private *listEntry(item: unknown, schema: SchemaNode, level: Level): Steps<void> {
    const [entry, group] = this.newEntry(item, schema, level);
    const meta = yield* this.members(
      item as ObjectValue, // checked by newEntry
      schema,
      nodeInfo(schema),
      entry,
      entry.children!,
      level.depth + 1,
      false,
      level.notifications,
    );
    this.ownAnnotations(entry, meta);
    this.ctx.checkListEntry(entry, group);
  }

  /** {@link listEntry} of an entry the reader parsed (see {@link membersNow}). */
  private listEntryNow(item: unknown, schema: SchemaNode, level: Level): void {
    const [entry, group] = this.newEntry(item, schema, level);
    this.ownAnnotations(
      entry,
      this.membersNow(item as JsonObject, schema, entry, level.depth + 1, level.notifications),
    );
    this.ctx.checkListEntry(entry, group);
  }

  /** The node of a list entry whose value is `item`, added to its group; returns both. */
  private newEntry(item: unknown, schema: SchemaNode, level: Level): [DataNode, Group] {
    if (!isObjectValue(item)) throw this.shape(level.parent, schema, 'JSON objects as entries');
    const entry = this.ctx.node(schema, level.parent);
    return [entry, addChild(level.into, entry)];
  }

  private resolveMaybeNotification(
    key: string,
    info: NodeInfo,
    schemaParent: SchemaNode | undefined,
    parent: DataNode | undefined,
    topLevel: boolean,
    notifications: boolean,
  ): SchemaNode | undefined {
    if (notifications && schemaParent !== undefined) {
      const [module, name] = splitName(key);
      const n = schemaParent.dataChild(module ?? schemaParent.module, name);
      if (n?.kind === 'notification') return n;
    }
    return this.resolve(key, info, schemaParent, parent, topLevel);
  }

  private shape(parent: DataNode | undefined, schema: SchemaNode, expected: string): CodecError {
    const path = this.ctx.childPath(parent, schema);
    return this.ctx.error(
      'BAD_ELEMENT',
      'bad-element',
      `${schema.kind} "${schema.name}" must be ${expected} (${path.json})`,
      path,
      {
        errorInfo: { 'bad-element': schema.name },
      },
    );
  }

  private leaf(schema: SchemaNode, parent: DataNode | undefined, value: unknown): DataNode {
    const node = this.ctx.node(schema, parent);
    if (typeof value === 'string') this.ctx.checkLength(parent, schema, value);
    const r = valueFromJson(this.tree, schema.type!, value, schema.module);
    if (!r.ok) {
      // A string is shown as its text, as in XML; any other JSON value as it was written.
      const shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
      throw this.ctx.badValue(parent, schema, r, shown);
    }
    node.value = r.value;
    if (r.member !== undefined) node.member = r.member;
    return node;
  }

  /** `@name` members: metadata of the sibling leaf, leaf-list entries (aligned array) or anydata. */
  private siblingMetadata(
    members: JsonObject,
    info: NodeInfo,
    schemaParent: SchemaNode | undefined,
    parent: DataNode | undefined,
    into: ChildMap,
    topLevel: boolean,
  ): void {
    for (const key of Object.keys(members)) {
      if (key === '@') continue; // the enclosing node's own metadata, read by the caller
      const target = key.slice(1);
      const schema = this.resolve(target, info, schemaParent, parent, topLevel);
      if (schema === undefined) continue;
      const nodes = into.get(schema);
      const meta = members[key];
      if (nodes === undefined) {
        if (!this.ctx.strict) continue;
        throw this.ctx.unknown(
          parent,
          schema.module,
          key,
          `(metadata of a member that is absent) in ${describe(parent)}`,
        );
      }
      if (schema.kind === 'leaf-list') {
        if (!Array.isArray(meta))
          throw this.shape(parent, schema, 'given metadata as an array aligned with its values');
        meta.forEach((m, i) => {
          const n = nodes[i];
          if (m !== null && n !== undefined) {
            if (!isObject(m)) throw this.shape(parent, schema, 'given metadata objects');
            n.annotations = this.annotationObject(m, n, schema);
          }
        });
      } else if (isObject(meta)) {
        nodes[0]!.annotations = this.annotationObject(meta, nodes[0], schema);
      } else throw this.shape(parent, schema, 'given metadata as a JSON object');
    }
  }

  /** Reads an RFC 7952 section 5.2 metadata object: module-qualified names. */
  private annotationObject(
    meta: JsonObject,
    owner: DataNode | undefined,
    leafSchema: SchemaNode | undefined,
  ): Annotation[] | undefined {
    let out: Annotation[] | undefined;
    for (const key of Object.keys(meta)) {
      const [module, name] = splitName(key);
      if (module === undefined) {
        if (!this.ctx.strict) continue;
        const path = this.ctx.nodePath(owner);
        throw this.ctx.error(
          'UNKNOWN_ATTRIBUTE',
          'unknown-attribute',
          `metadata "${key}" must carry its module name (RFC 7952 5.2.1)`,
          path,
          {
            errorInfo: { 'bad-attribute': key },
          },
        );
      }
      const ann = this.ctx.annotation(
        leafSchema ? owner?.parent : owner,
        leafSchema,
        module,
        name,
        meta[key],
        undefined,
      );
      if (ann !== undefined) (out ??= []).push(ann);
    }
    return out;
  }

  /**
   * anydata/anyxml content whose members all name top-level data nodes (`"module:name"`) is decoded as
   * data (a datastore's content); anything else stays schema-less (undefined here).
   */
  private *anyAsData(value: unknown, owner: DataNode, depth: number): Steps<ChildMap | undefined> {
    if (!isObject(value)) return undefined;
    const top = topLevelInfo(this.tree);
    let any = false;
    for (const key of Object.keys(value)) {
      if (key.startsWith('@')) continue;
      if (top.byQName.get(key) === undefined) return undefined;
      any = true;
    }
    if (!any) return undefined;
    const children: ChildMap = new CompactChildMap();
    try {
      yield* this.members(value, undefined, top, owner, children, depth, true);
    } catch (error) {
      if (CodecError.isInstance(error)) return undefined;
      throw error;
    }
    return children;
  }

  /** anydata/anyxml content (RFC 7951 section 5.5): names qualified when their module differs. */
  private anyValue(
    value: unknown,
    module: string,
    depth: number,
    parent: DataNode | undefined,
    schema: SchemaNode,
  ): AnyElement[] {
    if (depth > this.ctx.maxDepth) throw this.structure(`nesting deeper than ${this.ctx.maxDepth}`);
    if (!isObject(value)) {
      if (schema.kind === 'anydata') throw this.shape(parent, schema, 'a JSON object');
      return [this.anyScalar('', module, value, depth)];
    }
    const out: AnyElement[] = [];
    for (const key of Object.keys(value)) {
      if (key.startsWith('@')) continue;
      const [m, name] = splitName(key);
      const mod = m ?? module;
      const v = value[key];
      const items = Array.isArray(v) && !(v.length === 1 && v[0] === null) ? v : [v];
      for (const item of items) {
        if (isObject(item)) {
          out.push({
            name,
            module: mod,
            ns: this.tree.moduleByName(mod)?.namespace ?? '',
            children: this.anyValue(item, mod, depth + 1, parent, schema),
            text: undefined,
          });
        } else out.push(this.anyScalar(name, mod, item, depth));
      }
    }
    return out;
  }

  /** A value of anydata/anyxml content that is no object: an array inside it is kept as text, within the depth limit. */
  private anyScalar(name: string, module: string, value: unknown, depth: number): AnyElement {
    if (depth + jsonDepth(value, this.ctx.maxDepth) > this.ctx.maxDepth)
      throw this.structure(`nesting deeper than ${this.ctx.maxDepth}`);
    return scalar(name, module, this.tree, value);
  }
}

function scalar(name: string, module: string, tree: SchemaTree, v: unknown): AnyElement {
  const ns = tree.moduleByName(module)?.namespace ?? '';
  if (Array.isArray(v) && v.length === 1 && v[0] === null)
    return { name, module, ns, children: undefined, text: '', json: 'empty' };
  if (v === null) return { name, module, ns, children: undefined, text: '', json: 'null' };
  if (typeof v === 'number')
    return { name, module, ns, children: undefined, text: String(v), json: 'number' };
  if (typeof v === 'boolean')
    return { name, module, ns, children: undefined, text: String(v), json: 'boolean' };
  return { name, module, ns, children: undefined, text: typeof v === 'string' ? v : JSON.stringify(v) };
}

function describe(parent: DataNode | undefined): string {
  return parent === undefined ? 'the document' : `${parent.schema.kind} "${parent.schema.name}"`;
}
