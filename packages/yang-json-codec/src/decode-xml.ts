import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { attach, DecodeContext, type DecodeOptions } from './decoder';
import { type DocumentTarget, resolveDocument } from './document';
import type { Annotation, AnyElement, ChildMap, DataNode, InstanceTree } from './instance';
import { createNode } from './instance';
import { knownXmlAnnotation } from './known-annotations';
import { nodeInfo, topLevelInfo } from './schema-view';
import { valueFromXml } from './values';
import { readXml, type XmlElement } from './xml-reader';

/** NETCONF base namespace (RFC 6241): `<rpc>`, `<rpc-reply>`, `<data>`, `<ok>`. */
export const NETCONF_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
/** RFC 5277 notification namespace. */
export const NOTIFICATION_NS = 'urn:ietf:params:xml:ns:netconf:notification:1.0';
/** ietf-restconf namespace (RFC 8040): `<data>`, `<errors>`. */
export const RESTCONF_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf';

/**
 * Decodes NETCONF/RESTCONF XML into an instance tree, checking every name against the schema and every
 * value against its type (RFC 7950 section 9); list keys must be present and unique. Accepted shapes:
 * - data/config: top-level elements, or inside `<data>` (ietf-restconf or NETCONF base namespace);
 * - resource: the element(s) of one data resource below `options.parent`;
 * - rpc/action input: `<input>`, the operation element, or `<rpc>` around it (actions: `<action>` with the
 *   ancestor data nodes); output: `<output>` or `<rpc-reply>` around the output parameters;
 * - notification: `<notification>` with `<eventTime>` and the event element;
 * - yang-data: the structure's top element (e.g. `<errors>`).
 */
export function decodeXml(schema: SchemaTree, xml: string, options: DecodeOptions = {}): InstanceTree {
  const ctx = new DecodeContext(schema, options);
  const elements = readXml(xml, { maxSize: options.maxSize, maxDepth: options.maxDepth } as {
    maxSize?: number;
  });
  const target = resolveDocument(schema, options);
  return new XmlDecoder(ctx).document(elements, target);
}

class XmlDecoder {
  private readonly ctx: DecodeContext;
  private readonly tree: SchemaTree;
  private readonly moduleByNs = new Map<string, string | null>();

  constructor(ctx: DecodeContext) {
    this.ctx = ctx;
    this.tree = ctx.tree;
  }

  private moduleOf(ns: string): string | undefined {
    let m = this.moduleByNs.get(ns);
    if (m === undefined) {
      m = this.tree.moduleByNamespace(ns)?.name ?? null;
      this.moduleByNs.set(ns, m);
    }
    return m ?? undefined;
  }

  document(elements: XmlElement[], target: DocumentTarget): InstanceTree {
    const children: ChildMap = new Map();
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
      case 'config': {
        let content = elements;
        const only = elements[0];
        if (
          elements.length === 1 &&
          only!.local === 'data' &&
          (only!.ns === RESTCONF_NS || only!.ns === NETCONF_NS)
        ) {
          content = only!.children.filter((c): c is XmlElement => typeof c !== 'string');
          doc.annotations = this.annotations(only!, undefined, undefined);
        }
        this.children(content, undefined, undefined, children, 0);
        break;
      }
      case 'resource':
        this.children(elements, target.parent, undefined, children, 0);
        break;
      case 'yang-data':
        this.children(elements, undefined, undefined, children, 0, target.structure);
        break;
      case 'notification':
        this.notification(elements, doc);
        break;
      default:
        this.operation(elements, target, children);
    }
    return doc;
  }

  private notification(elements: XmlElement[], doc: InstanceTree): void {
    const [wrapper] = elements;
    if (elements.length !== 1 || wrapper!.local !== 'notification' || wrapper!.ns !== NOTIFICATION_NS) {
      throw this.structure('a notification document is one <notification> element in the RFC 5277 namespace');
    }
    const parts = wrapper!.children.filter((c): c is XmlElement => typeof c !== 'string');
    const eventTime = parts.find((p) => p.local === 'eventTime' && p.ns === NOTIFICATION_NS);
    if (eventTime === undefined) throw this.structure('<notification> lacks <eventTime>', 'eventTime');
    doc.eventTime = text(eventTime).trim();
    const events = parts.filter((p) => p !== eventTime);
    this.children(events, undefined, undefined, doc.children, 0, undefined, true);
  }

  private operation(elements: XmlElement[], target: DocumentTarget, children: ChildMap): void {
    const op = target.operation!;
    const part = target.part!;
    let content: XmlElement[] = elements;
    const opModule = op.module;
    const strip = (el: XmlElement): XmlElement[] =>
      el.children.filter((c): c is XmlElement => typeof c !== 'string');
    const first = elements[0];
    if (elements.length === 1 && first !== undefined) {
      if ((first.local === 'rpc' || first.local === 'rpc-reply') && first.ns === NETCONF_NS)
        content = strip(first);
    }
    const one = content[0];
    if (content.length === 1 && one !== undefined && this.moduleOf(one.ns) === opModule) {
      if (one.local === part.kind || one.local === op.name) content = strip(one);
    }
    const node = createNode(part, undefined);
    attach(children, node);
    this.children(content, part, node, node.children!, 1);
  }

  /** Decodes sibling elements under `parent` (an instance) whose schema is `schemaParent`. */
  private children(
    elements: readonly (XmlElement | string)[],
    schemaParent: SchemaNode | undefined,
    parent: DataNode | undefined,
    into: ChildMap,
    depth: number,
    structure?: readonly SchemaNode[],
    notifications?: boolean,
  ): void {
    if (depth > this.ctx.maxDepth) throw this.structure(`nesting deeper than ${this.ctx.maxDepth}`);
    const info =
      schemaParent === undefined ? (structure ? undefined : topLevelInfo(this.tree)) : nodeInfo(schemaParent);
    let keysSeen: Map<SchemaNode, Set<string>> | undefined;
    for (const el of elements) {
      if (typeof el === 'string') {
        if (el.trim() !== '') {
          const path = this.ctx.nodePath(parent);
          throw this.ctx.error(
            'BAD_ELEMENT',
            'bad-element',
            `unexpected text inside ${describe(parent)} (${path.json})`,
            path,
          );
        }
        continue;
      }
      const module = this.moduleOf(el.ns);
      if (module === undefined) {
        if (!this.ctx.strict) continue;
        const path = this.ctx.childPath(parent, { module: undefined, name: el.local });
        throw this.ctx.error(
          'UNKNOWN_NAMESPACE',
          'unknown-namespace',
          `element "${el.local}" is in namespace "${el.ns}" that no module of the schema has (${path.json})`,
          path,
          { errorInfo: { 'bad-element': el.local, 'bad-namespace': el.ns } },
        );
      }
      let schema: SchemaNode | undefined;
      if (info !== undefined) schema = info.byNamespace.get(el.ns)?.get(el.local);
      else schema = structure?.find((s) => s.name === el.local && s.module === module);
      if (schema === undefined && notifications)
        schema = this.notificationStep(schemaParent, module, el.local);
      if (schema === undefined) {
        if (!this.ctx.strict) continue;
        const sameName = info?.byName.get(el.local);
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
      this.ctx.checkConfig(parent, schema);
      const node = this.node(el, schema, parent, depth + 1, notifications === true);
      const existing = into.get(schema);
      if (
        existing !== undefined &&
        (schema.kind === 'leaf' ||
          schema.kind === 'container' ||
          schema.kind === 'anydata' ||
          schema.kind === 'anyxml')
      ) {
        throw this.ctx.duplicate(parent, schema);
      }
      if (existing === undefined) into.set(schema, [node]);
      else existing.push(node);
      if (schema.kind === 'list') this.ctx.checkListEntry(node, (keysSeen ??= new Map()));
      else if (schema.kind === 'leaf-list') this.ctx.checkLeafListValue(node, (keysSeen ??= new Map()));
    }
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

  private node(
    el: XmlElement,
    schema: SchemaNode,
    parent: DataNode | undefined,
    depth: number,
    notifications: boolean,
  ): DataNode {
    const node = createNode(schema, parent);
    if (el.attributes.length > 0) node.annotations = this.annotations(el, node, schema);
    switch (schema.kind) {
      case 'leaf':
      case 'leaf-list': {
        let value = '';
        for (const c of el.children) {
          if (typeof c !== 'string') {
            throw this.ctx.error(
              'BAD_ELEMENT',
              'bad-element',
              `${schema.kind} "${schema.name}" holds an element <${c.local}> instead of a value (${this.ctx.childPath(parent, schema).json})`,
              this.ctx.childPath(parent, schema),
              { errorInfo: { 'bad-element': schema.name } },
            );
          }
          value += c;
        }
        const r = valueFromXml(this.tree, schema.type!, value, (p) => el.scope.lookup(p));
        if (!r.ok) throw this.ctx.badValue(parent, schema, r, value);
        node.value = r.value;
        node.member = r.member;
        break;
      }
      case 'anydata':
      case 'anyxml':
        node.any = this.anyContent(el.children, depth);
        break;
      default:
        this.children(el.children, schema, node, node.children!, depth, undefined, notifications);
    }
    return node;
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
        text: hasElements ? undefined : text(c),
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

function text(el: XmlElement): string {
  let s = '';
  for (const c of el.children) if (typeof c === 'string') s += c;
  return s;
}

function describe(parent: DataNode | undefined): string {
  return parent === undefined ? 'the document' : `${parent.schema.kind} "${parent.schema.name}"`;
}
