import {
  childElements,
  streamXmlElementsSteps,
  streamXmlSteps,
  textOf,
  type XmlElement,
  XmlError,
  type XmlLimits,
  type XmlSink,
  type XmlTextPieces,
} from '@yangkit/xml';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { addChild, CompactChildMap } from './child-map';
import { attach, DecodeContext, type DecodeOptions } from './decoder';
import { type DocumentTarget, resolveDocument } from './document';
import { CodecError } from './errors';
import { isFilterAttribute } from './filter-attributes';
import type { Annotation, AnyElement, ChildMap, DataNode, InstanceTree } from './instance';
import { knownXmlAnnotation, NETCONF_MODULE } from './known-annotations';
import { type NodeInfo, nodeInfo, structureInfo, topLevelInfo } from './schema-view';
import { finishSteps, type Steps } from './steps';
import { valueFromXml } from './values';
import { mapXPathPrefixes } from './xpath-value';

/** NETCONF base namespace (RFC 6241): `<rpc>`, `<rpc-reply>`, `<data>`, `<ok>`. */
export const NETCONF_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
/** The YANG XML namespace of RFC 7950 section 7.15.2 `<action>`. */
export const YANG_XML_NS = 'urn:ietf:params:xml:ns:yang:1';
/** RFC 5277 notification namespace. */
export const NOTIFICATION_NS = 'urn:ietf:params:xml:ns:netconf:notification:1.0';
/** ietf-restconf namespace (RFC 8040): `<data>`, `<errors>`. */
export const RESTCONF_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf';

/**
 * Decodes NETCONF/RESTCONF XML into an instance tree, checking every name against the schema and every
 * value against its type (RFC 7950 section 9); list keys must be present and unique. Accepted shapes:
 * - data/config: top-level elements, or inside `<data>` (ietf-restconf or NETCONF base namespace);
 * - resource: the element(s) of one data resource below `options.parent`;
 * - rpc/action input: `<input>`, the operation element, or `<rpc>` around it (actions: the ancestor data
 *   nodes, alone or in `<action>`); output: `<output>` or `<rpc-reply>` around the output parameters;
 * - notification: `<notification>` with `<eventTime>` and the event element, or the event element alone;
 * - yang-data: the structure's top element (e.g. `<errors>`).
 *
 * `xml` is the text; or the text in pieces (`XmlTextPieces`: an array of strings, or any other
 * iterable of them, such as a generator reading a file a block at a time), read as they come, so that
 * the whole text is never held beside the tree; or elements already read by `@yangkit/xml` (a NETCONF
 * reply read once, say, whose `<data>` element is decoded without being written back to text).
 */
export function decodeXml(schema: SchemaTree, xml: XmlInput, options: DecodeOptions = {}): InstanceTree {
  return finishSteps(decodeXmlSteps(schema, xml, options));
}

/**
 * {@link decodeXml} in steps (see {@link Steps}): the same decode, yielding every few hundred
 * elements of the text, so that a server can give the event loop back while a big body decodes.
 */
export function* decodeXmlSteps(
  schema: SchemaTree,
  xml: XmlInput,
  options: DecodeOptions = {},
): Steps<InstanceTree> {
  const ctx = new DecodeContext(schema, options);
  const target = resolveDocument(schema, options);
  const decoder = new XmlDecoder(ctx, target);
  if (!isText(xml)) yield* streamXmlElementsSteps(xml, decoder);
  else {
    // Streamed: containers and list entries become instances as their end tags are read, so the document
    // never exists as a whole element tree beside the instance tree.
    try {
      yield* streamXmlSteps(xml, decoder, xmlLimits(options));
    } catch (error) {
      throw XmlError.isInstance(error) ? readError(error) : error;
    }
  }
  return decoder.finish();
}

/** What {@link decodeXml} reads: text, whole or in pieces, or elements already read. */
export type XmlInput = string | XmlTextPieces | XmlElement | readonly XmlElement[];

/** Whether `xml` is text (an array is text when it holds strings, elements when it holds elements). */
function isText(xml: XmlInput): xml is string | XmlTextPieces {
  if (typeof xml === 'string') return true;
  if (Array.isArray(xml)) return typeof xml[0] === 'string';
  return !('local' in xml);
}

const ONE_NOTIFICATION =
  'a notification document is one event element, or one <notification> element in the RFC 5277 namespace around it';

const DEFAULT_MAX_SIZE = 256 * 1024 * 1024;

/**
 * The reader's limits for a decode: the size and depth options; the size bounds elements and text,
 * and the instance tree is what the decode keeps, so no separate count or text limit applies.
 */
function xmlLimits(options: DecodeOptions): XmlLimits {
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  return {
    maxSize,
    maxDepth: options.maxDepth ?? 256,
    maxElements: Number.POSITIVE_INFINITY,
    maxTextLength: maxSize,
  };
}

/** A reading error as the codec reports it: not well-formed (or too big) input is a malformed message. */
function readError(error: XmlError): CodecError {
  const code =
    error.code === 'XML_LIMIT_EXCEEDED'
      ? 'LIMIT_EXCEEDED'
      : error.code === 'XML_FORBIDDEN'
        ? 'XML_FORBIDDEN'
        : 'XML_MALFORMED';
  return new CodecError(code, `malformed XML: ${error.message}`, {
    errorTag: error.limit === 'maxSize' ? 'too-big' : 'malformed-message',
    cause: error,
  });
}

/** Where decoded children go: an instance (or the document) with the schema of its children. */
interface Holder {
  readonly type: 'holder';
  readonly schemaParent: SchemaNode | undefined;
  readonly info: NodeInfo;
  /** The instance the children belong to (undefined at the document level). */
  readonly node: DataNode | undefined;
  readonly into: ChildMap;
  /** Inside a notification document: data nodes may lead to a nested notification. */
  readonly notifications: boolean;
}

/** What an open element stands for while its content is read. */
type Frame =
  | Holder
  | { readonly type: 'leaf'; readonly schema: SchemaNode; readonly owner: Holder }
  /** A leaf or leaf-list entry: its text as it is read (streamed, so no element keeps it). */
  | { readonly type: 'value'; readonly schema: SchemaNode; readonly owner: Holder; text: string }
  | { readonly type: 'skip' }
  | { readonly type: 'data-wrapper'; readonly owner: Holder }
  | { readonly type: 'operation'; readonly part: Holder }
  | { readonly type: 'action-path'; readonly part: Holder; readonly schema: SchemaNode | undefined }
  | { readonly type: 'notification' }
  | { readonly type: 'event-time' };

class XmlDecoder implements XmlSink {
  private readonly ctx: DecodeContext;
  private readonly tree: SchemaTree;
  private readonly moduleByNs = new Map<string, string | null>();
  private readonly doc: InstanceTree;
  private readonly stack: Frame[] = [];
  /** The frame of the document level (before any element is open). */
  private readonly root: Frame;
  /** Frames pushed for elements, parallel to the reader's open elements. */
  private first = true;
  private sawNotification = false;
  /** The decode of an anydata's content as data, left by `close` for the reader to run as steps. */
  private deferred: Steps<void> | undefined;

  constructor(
    ctx: DecodeContext,
    private readonly target: DocumentTarget,
  ) {
    this.ctx = ctx;
    this.tree = ctx.tree;
    this.doc = {
      schema: this.tree,
      kind: target.kind,
      parent: target.parent,
      operation: target.operation,
      eventTime: undefined,
      children: new CompactChildMap(),
      annotations: undefined,
    };
    this.root = this.rootFrame();
  }

  private holder(
    schemaParent: SchemaNode | undefined,
    info: NodeInfo,
    node: DataNode | undefined,
    into: ChildMap,
    notifications = false,
  ): Holder {
    return { type: 'holder', schemaParent, info, node, into, notifications };
  }

  private rootFrame(): Frame {
    const t = this.target;
    const children = this.doc.children;
    switch (t.kind) {
      case 'data':
      case 'config':
        return this.holder(undefined, topLevelInfo(this.tree), undefined, children);
      case 'resource':
        return this.holder(
          t.parent,
          t.parent === undefined ? topLevelInfo(this.tree) : nodeInfo(t.parent),
          undefined,
          children,
        );
      case 'yang-data':
        return this.holder(undefined, structureInfo(t.structure ?? []), undefined, children);
      case 'notification':
        return { type: 'notification' };
      default: {
        const part = this.ctx.node(t.part!, undefined);
        attach(children, part);
        return { type: 'operation', part: this.holder(t.part, nodeInfo(t.part!), part, part.children!) };
      }
    }
  }

  finish(): InstanceTree {
    if (this.target.kind === 'notification' && !this.sawNotification) throw this.structure(ONE_NOTIFICATION);
    return this.doc;
  }

  private moduleOf(ns: string): string | undefined {
    let m = this.moduleByNs.get(ns);
    if (m === undefined) {
      m = this.tree.moduleByNamespace(ns)?.name ?? null;
      this.moduleByNs.set(ns, m);
    }
    return m ?? undefined;
  }

  open(el: XmlElement, depth: number): 'collect' | 'stream' {
    const frame = depth === 0 ? this.root : this.stack[this.stack.length - 1]!;
    const first = this.first;
    this.first = false;
    let next: Frame;
    switch (frame.type) {
      case 'holder':
        if (
          depth === 0 &&
          first &&
          frame.node === undefined &&
          (this.target.kind === 'data' || this.target.kind === 'config') &&
          el.local === 'data' &&
          (el.ns === RESTCONF_NS || el.ns === NETCONF_NS)
        ) {
          this.doc.annotations = this.annotations(el, undefined, undefined);
          next = { type: 'data-wrapper', owner: frame };
        } else next = this.child(frame, el);
        break;
      case 'data-wrapper':
        next = this.child(frame.owner, el);
        break;
      case 'operation':
        if ((el.local === 'rpc' || el.local === 'rpc-reply') && el.ns === NETCONF_NS) next = frame;
        else if (el.local === 'action' && el.ns === YANG_XML_NS && this.target.operation!.kind === 'action') {
          // RFC 7950 7.15.2: <action> holds the data nodes leading to the action element.
          next = { type: 'action-path', part: frame.part, schema: undefined };
        } else if (
          this.moduleOf(el.ns) === this.target.operation!.module &&
          (el.local === this.target.part!.kind || el.local === this.target.operation!.name)
        ) {
          next = frame.part;
        } else if (this.target.operation!.kind === 'action' && this.leadsToAction(el)) {
          // libyang's form (yanglint -t rpc): the data nodes leading to the action without <action>.
          next = this.actionStep({ type: 'action-path', part: frame.part, schema: undefined }, el);
        } else next = this.child(frame.part, el);
        break;
      case 'action-path':
        next = this.actionStep(frame, el);
        break;
      case 'value':
        throw this.valueHoldsElement(frame.owner.node, frame.schema, el);
      case 'notification':
        if (depth === 0) {
          if (this.sawNotification) throw this.structure(ONE_NOTIFICATION);
          this.sawNotification = true;
          // The event alone (yanglint -t notif) or inside the RFC 5277 envelope with its eventTime.
          next =
            el.local === 'notification' && el.ns === NOTIFICATION_NS ? frame : this.notificationContent(el);
        } else if (el.local === 'eventTime' && el.ns === NOTIFICATION_NS) next = { type: 'event-time' };
        else next = this.notificationContent(el);
        break;
      default:
        next = { type: 'skip' };
    }
    this.stack.push(next);
    return next.type === 'leaf' || next.type === 'event-time' ? 'collect' : 'stream';
  }

  /** A top-level element that is a container or list on the way to the action being read. */
  private leadsToAction(el: XmlElement): boolean {
    const step = this.tree.topLevel(this.moduleOf(el.ns) ?? '', el.local);
    return step !== undefined && isAncestor(step, this.target.operation!);
  }

  /** One element inside the data nodes that lead to an action (RFC 7950 7.15.2). */
  private actionStep(frame: Extract<Frame, { type: 'action-path' }>, el: XmlElement): Frame {
    const op = this.target.operation!;
    const step =
      frame.schema === undefined
        ? this.tree.topLevel(this.moduleOf(el.ns) ?? '', el.local)
        : frame.schema.dataChild(this.moduleOf(el.ns) ?? '', el.local);
    if (step === op) return frame.part;
    if (step !== undefined && (step.kind === 'container' || step.kind === 'list') && isAncestor(step, op)) {
      return { type: 'action-path', part: frame.part, schema: step };
    }
    if (step !== undefined && step.kind === 'leaf' && frame.schema?.kind === 'list') {
      return { type: 'skip' }; // a key of a list entry on the way
    }
    throw this.structure(`<${el.local}> does not lead to ${op.kind} "${op.name}"`, el.local);
  }

  /** An element of a notification document outside `<eventTime>`: the event or data nodes leading to it. */
  private notificationContent(el: XmlElement): Frame {
    return this.child(
      this.holder(undefined, topLevelInfo(this.tree), undefined, this.doc.children, true),
      el,
    );
  }

  text(el: XmlElement, text: string): void {
    const frame = this.stack[this.stack.length - 1];
    if (frame?.type === 'value') {
      frame.text += text;
      return;
    }
    if (frame?.type === 'skip' || /^[ \t\r\n]*$/.test(text)) return;
    const node = frame?.type === 'holder' ? frame.node : undefined;
    const path = this.ctx.nodePath(node);
    throw this.ctx.error(
      'BAD_ELEMENT',
      'bad-element',
      `unexpected text inside ${describe(node)} <${el.local}> (${path.json})`,
      path,
    );
  }

  takeSteps(): Steps<void> | undefined {
    const steps = this.deferred;
    this.deferred = undefined;
    return steps;
  }

  close(el: XmlElement): void {
    const frame = this.stack.pop()!;
    switch (frame.type) {
      case 'value':
        this.attachTo(frame.owner, this.leaf(el, frame.schema, frame.owner.node, frame.text));
        break;
      case 'leaf':
        this.attachTo(frame.owner, this.any(el, frame.schema, frame.owner.node));
        break;
      case 'holder': {
        // An instance frame (container, list entry, notification) attaches to the frame below it.
        const node = frame.node;
        if (node === undefined || node.schema.kind === 'input' || node.schema.kind === 'output') break;
        if (node === this.operationPart()) break;
        const owner = this.ownerOf(node);
        if (owner !== undefined) this.attachTo(owner, node);
        break;
      }
      case 'event-time': {
        this.doc.eventTime = textOf(el).trim();
        break;
      }
      case 'notification':
        if (this.stack.length === 0 && this.doc.eventTime === undefined) {
          throw this.structure('<notification> lacks <eventTime>', 'eventTime');
        }
        break;
      default:
        break;
    }
  }

  private operationPart(): DataNode | undefined {
    return this.root.type === 'operation' ? this.root.part.node : undefined;
  }

  /** The holder an instance frame's node goes into: the nearest holder frame below it, or the root. */
  private ownerOf(node: DataNode): Holder | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i]!;
      if (f.type === 'holder') return f;
      if (f.type === 'data-wrapper') return f.owner;
      if (f.type === 'operation') return f.part;
      if (f.type === 'notification') return this.notificationTop;
    }
    const r = this.root;
    if (r.type === 'holder') return r;
    if (r.type === 'operation') return r.part;
    if (r.type === 'notification') return this.notificationTop;
    void node;
    return undefined;
  }

  private notificationTop: Holder | undefined;

  /** Resolves a child element of `holder` to a frame (creating the instance for inner nodes). */
  private child(holder: Holder, el: XmlElement): Frame {
    const parent = holder.node;
    let schema = holder.info.byNamespace.get(el.ns)?.get(el.local);
    if (schema === undefined) schema = this.unresolved(holder, el);
    if (schema === undefined) return { type: 'skip' };
    this.ctx.checkConfig(parent, schema);
    switch (schema.kind) {
      case 'leaf':
      case 'leaf-list':
        return { type: 'value', schema, owner: holder, text: '' };
      case 'anydata':
      case 'anyxml':
        return { type: 'leaf', schema, owner: holder };
      default: {
        const node = this.ctx.node(schema, parent);
        if (el.attributes.length > 0) node.annotations = this.annotations(el, node, schema);
        if (holder.notifications && parent === undefined) this.notificationTop = holder;
        return this.holder(schema, nodeInfo(schema), node, node.children!, holder.notifications);
      }
    }
  }

  /** A child element no data node matches: a nested notification, skipped (not strict), or an error. */
  private unresolved(holder: Holder, el: XmlElement): SchemaNode | undefined {
    const parent = holder.node;
    const module = this.moduleOf(el.ns);
    if (module === undefined) {
      if (!this.ctx.strict) return undefined;
      const path = this.ctx.childPath(parent, { module: undefined, name: el.local });
      throw this.ctx.error(
        'UNKNOWN_NAMESPACE',
        'unknown-namespace',
        `element "${el.local}" is in namespace "${el.ns}" that no module of the schema has (${path.json})`,
        path,
        { errorInfo: { 'bad-element': el.local, 'bad-namespace': el.ns } },
      );
    }
    const nested = holder.notifications
      ? this.notificationStep(holder.schemaParent, module, el.local)
      : undefined;
    if (nested !== undefined) return nested;
    if (!this.ctx.strict) return undefined;
    const sameName = holder.info.byName.get(el.local);
    if (sameName !== undefined) {
      const path = this.ctx.childPath(parent, { module, name: el.local });
      throw this.ctx.error(
        'UNKNOWN_NAMESPACE',
        'unknown-namespace',
        `element "${el.local}" is in the namespace of module "${module}" but belongs to "${sameName[0]!.module}" (${path.json})`,
        path,
        { errorInfo: { 'bad-element': el.local, 'bad-namespace': el.ns } },
      );
    }
    throw this.ctx.unknown(parent, module, el.local, `in ${describe(parent)}`);
  }

  /** Adds a finished instance to its holder, with the single-instance and key checks. */
  private attachTo(holder: Holder, node: DataNode): void {
    const schema = node.schema;
    const kind = schema.kind;
    // The kind first: the lookup is only needed for kinds of one instance.
    if (
      (kind === 'leaf' || kind === 'container' || kind === 'anydata' || kind === 'anyxml') &&
      holder.into.has(schema)
    ) {
      throw this.ctx.duplicate(holder.node, schema);
    }
    const group = addChild(holder.into, node);
    if (kind === 'list') this.ctx.checkListEntry(node, group);
    else if (kind === 'leaf-list') this.ctx.checkLeafListValue(node, group);
  }

  /** Inside a notification document, data nodes on the way to a nested notification (RFC 7950 7.16.2). */
  private notificationStep(
    schemaParent: SchemaNode | undefined,
    module: string,
    name: string,
  ): SchemaNode | undefined {
    if (schemaParent === undefined) {
      const n = this.tree.topLevel(module, name);
      return n?.kind === 'notification' ? n : undefined;
    }
    const c = schemaParent.dataChild(module, name);
    return c?.kind === 'notification' ? c : undefined;
  }

  /** anydata/anyxml from its collected element. */
  private any(el: XmlElement, schema: SchemaNode, parent: DataNode | undefined): DataNode {
    const node = this.ctx.node(schema, parent);
    if (el.attributes.length > 0) node.annotations = this.annotations(el, node, schema);
    // A YANG Push update's or a get-data reply's content can be megabytes: decoded in steps.
    if (this.holdsData(el)) this.deferred = this.anyAsDataSteps(el, node);
    else node.any = this.schemaless(el, schema);
    return node;
  }

  /** anydata/anyxml content kept as elements, without the schema. */
  private schemaless(el: XmlElement, schema: SchemaNode): AnyElement[] {
    return (schema.kind === 'anyxml' ? anyText(el) : undefined) ?? this.anyContent(el.children, 0);
  }

  /** A leaf or leaf-list entry whose element held `text`. */
  private leaf(el: XmlElement, schema: SchemaNode, parent: DataNode | undefined, text: string): DataNode {
    const node = this.ctx.node(schema, parent);
    if (el.attributes.length > 0) node.annotations = this.annotations(el, node, schema);
    if (schema.kind === 'leaf' && this.ctx.editAttributes && isDeletion(node)) return node;
    this.ctx.checkLength(parent, schema, text);
    const r = valueFromXml(this.tree, schema.type!, text, el.scope);
    if (!r.ok) throw this.ctx.badValue(parent, schema, r, text);
    // An identity's name is the schema's own string, one for every value that names it.
    node.value = schema.type!.base === 'identityref' ? r.value : detached(r.value);
    if (r.member !== undefined) node.member = r.member;
    return node;
  }

  /** A leaf or leaf-list entry whose element holds element `child`. */
  private valueHoldsElement(parent: DataNode | undefined, schema: SchemaNode, child: XmlElement): CodecError {
    const path = this.ctx.childPath(parent, schema);
    return this.ctx.error(
      'BAD_ELEMENT',
      'bad-element',
      `${schema.kind} "${schema.name}" holds an element <${child.local}> instead of a value (${path.json})`,
      path,
      { errorInfo: { 'bad-element': schema.name } },
    );
  }

  /**
   * Whether anydata/anyxml content is data: its elements are all top-level data nodes of the schema
   * (a datastore's content, as in get-config output or a YANG Push update). Data is decoded as such
   * (see {@link anyAsDataSteps}), so it encodes by RFC 7951 like any other data.
   */
  private holdsData(el: XmlElement): boolean {
    const top = topLevelInfo(this.tree).byNamespace;
    let any = false;
    for (const c of el.children) {
      if (typeof c === 'string') {
        if (/^[ \t\r\n]*$/.test(c)) continue;
        return false;
      }
      if (top.get(c.ns)?.get(c.local) === undefined) return false;
      any = true;
    }
    return any;
  }

  /**
   * Decodes the content of `owner`, an anydata/anyxml whose content {@link holdsData}, as its
   * children, in steps; content that does not decode as data stays schema-less.
   */
  private *anyAsDataSteps(el: XmlElement, owner: DataNode): Steps<void> {
    const decoder = new XmlDecoder(this.ctx, DATA_TARGET);
    try {
      yield* streamXmlElementsSteps(childElements(el), decoder);
    } catch (error) {
      if (!CodecError.isInstance(error)) throw error;
      owner.any = this.schemaless(el, owner.schema);
      return;
    }
    const children = decoder.finish().children;
    for (const nodes of children.values()) for (const n of nodes) n.parent = owner;
    owner.children = children;
  }

  private anyContent(children: readonly (XmlElement | string)[], depth: number): AnyElement[] {
    if (depth > this.ctx.maxDepth) throw this.structure(`nesting deeper than ${this.ctx.maxDepth}`);
    const out: AnyElement[] = [];
    for (const c of children) {
      if (typeof c === 'string') continue;
      const hasElements = c.children.some((x) => typeof x !== 'string');
      const annotations = c.attributes.length > 0 ? this.annotations(c, undefined, undefined) : undefined;
      out.push({
        name: c.local,
        module: this.moduleOf(c.ns),
        ns: c.ns,
        children: hasElements ? this.anyContent(c.children, depth + 1) : undefined,
        text: hasElements ? undefined : textOf(c),
        ...(annotations ? { annotations } : {}),
      });
    }
    return out;
  }

  /** RFC 7952 section 5.1: annotations are namespace-qualified XML attributes. */
  private annotations(
    el: XmlElement,
    node: DataNode | undefined,
    schema: SchemaNode | undefined,
  ): Annotation[] | undefined {
    let out: Annotation[] | undefined;
    for (const a of el.attributes) {
      if (a.ns === '' && isFilterAttribute(schema, NETCONF_MODULE, a.local)) {
        const value =
          a.local === 'select'
            ? mapXPathPrefixes(a.value, (p) => this.moduleOf(el.scope.lookup(p) ?? ''))
            : a.value;
        (out ??= []).push({ module: NETCONF_MODULE, name: a.local, value });
        continue;
      }
      const known = a.ns === '' ? undefined : knownXmlAnnotation(a.ns, a.local);
      const module = a.ns === '' ? undefined : (known?.module ?? this.moduleOf(a.ns));
      if (module === undefined) {
        if (!this.ctx.strict) continue;
        const path =
          schema === undefined ? this.ctx.nodePath(node) : this.ctx.childPath(node?.parent, schema);
        throw this.ctx.error(
          'UNKNOWN_ATTRIBUTE',
          'unknown-attribute',
          `attribute "${a.prefix === '' ? a.local : `${a.prefix}:${a.local}`}" on <${el.local}> is not metadata of any module (${path.json})`,
          path,
          { errorInfo: { 'bad-attribute': a.local, 'bad-element': el.local } },
        );
      }
      const ann = this.ctx.annotation(node?.parent, schema, module, a.local, a.value, (p) =>
        el.scope.lookup(p),
      );
      if (ann !== undefined) (out ??= []).push(ann);
    }
    return out;
  }

  private structure(message: string, element?: string) {
    return this.ctx.error(
      'BAD_ELEMENT',
      'bad-element',
      message,
      { json: '/', xml: '/' },
      element ? { errorInfo: { 'bad-element': element } } : {},
    );
  }
}

/**
 * `value` as a string of its own. V8 takes a slice of 13 characters or more as a view into the
 * text it was cut from, so one such value kept in the tree would keep the whole document text alive.
 * JSON.parse makes one flat string of the characters; a slice of a concatenation (`${value} `) was
 * two objects, a copy and a view into it (80 bytes for a value of 28 characters, against 48).
 */
function detached(value: string): string {
  return value.length < 13 ? value : JSON.parse(JSON.stringify(value));
}

/** True when an edit deletes or removes the node (RFC 6241 7.2): its content does not matter. */
function isDeletion(node: DataNode): boolean {
  const op = node.annotations?.find((a) => a.module === NETCONF_MODULE && a.name === 'operation')?.value;
  return op === 'delete' || op === 'remove';
}

/** What decoding a datastore's content resolves to. */
const DATA_TARGET: DocumentTarget = {
  kind: 'data',
  parent: undefined,
  operation: undefined,
  part: undefined,
  structure: undefined,
};

function describe(parent: DataNode | undefined): string {
  return parent === undefined ? 'the document' : `${parent.schema.kind} "${parent.schema.name}"`;
}

/** True when `node` is an ancestor of `descendant` in the schema tree. */
function isAncestor(node: SchemaNode, descendant: SchemaNode): boolean {
  for (let p = descendant.parent; p !== undefined; p = p.parent) if (p === node) return true;
  return false;
}

/**
 * Content that is text alone (the schema text of get-schema's anyxml `data`, RFC 6022 section 3.1)
 * as the one scalar item that both encoders write as the node's value.
 */
function anyText(el: XmlElement): AnyElement[] | undefined {
  if (el.children.some((c) => typeof c !== 'string')) return undefined;
  const text = textOf(el);
  if (/^[ \t\r\n]*$/.test(text)) return undefined;
  return [{ name: '', module: undefined, ns: '', children: undefined, text }];
}
