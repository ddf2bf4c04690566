import { escapeXmlAttribute, escapeXmlText, namespaceDeclarations } from '@yangkit/xml';
import type { SchemaNode, SchemaTree, YangType } from '@yangkit/yang-schema';
import { groupAt, instanceOf, sizeOf } from './child-map';
import { NOTIFICATION_NS, RESTCONF_NS } from './decode-xml';
import {
  CHUNK_SIZE,
  type EncodeOptions,
  entriesInOrder,
  flatText,
  groupsOf,
  groupsToWrite,
  Indenter,
  isLarge,
  nothingToWrite,
  type SystemSort,
  viewedInSteps,
} from './encode-options';
import { isFilterAttribute } from './filter-attributes';
import type { Annotation, AnyElement, ChildHolder, DataNode, InstanceTree } from './instance';
import { knownAnnotation } from './known-annotations';
import { prefixOfModule } from './schema-view';
import { usesPrefixes, valueToXml, xpathToXml } from './values';
import { type Place, startPlace } from './view';

/** Options of {@link encodeXml}. */
export interface EncodeXmlOptions extends EncodeOptions {
  /**
   * rpc/action kinds: name the parameters' wrapper after the operation (`<reboot xmlns=...>`, the NETCONF
   * `<rpc>` content) instead of `<input>`/`<output>` (the RESTCONF form, default).
   */
  readonly operationElement?: boolean;
}

/**
 * NETCONF XML (RFC 7950 section 7 encoding) of an instance tree as chunks of about 64 KiB: a default
 * namespace on each top element and wherever the namespace changes, list keys first, identityref and
 * instance-identifier prefixes declared on the element that uses them, RFC 7952 metadata as
 * namespace-qualified attributes (section 5.1). An empty chunk is a step of work that writes nothing
 * yet, as in `encodeJsonChunks`.
 */
export function* encodeXmlChunks(tree: InstanceTree, options: EncodeXmlOptions = {}): Generator<string> {
  const w = new XmlWriter(tree.schema, options);
  yield* w.document(tree, startPlace(tree, options.view));
  if (w.out.length > 0) yield w.take();
}

/** NETCONF XML of an instance tree as one string (see {@link encodeXmlChunks}). */
export function encodeXml(tree: InstanceTree, options: EncodeXmlOptions = {}): string {
  let out = '';
  for (const chunk of encodeXmlChunks(tree, options)) out += chunk;
  return out;
}

class XmlWriter {
  /** The text written since the last chunk (appended to: V8 joins the pieces once, when it is read). */
  out = '';
  private readonly schema: SchemaTree;
  private readonly ind: Indenter;
  private readonly keepEmptyNp: boolean;
  private readonly sort: SystemSort;
  private readonly metadata: boolean;
  private readonly wrapper: boolean;
  private readonly operationElement: boolean;
  private first = true;
  private readonly annotationTypes: SchemaTree['annotations'];

  constructor(schema: SchemaTree, options: EncodeXmlOptions) {
    this.schema = schema;
    this.ind = new Indenter(options.indent);
    this.keepEmptyNp = options.returnEmptyNpContainers ?? true;
    this.sort = options.sortSystemOrdered ?? false;
    this.metadata = options.metadata ?? true;
    this.wrapper = options.wrapper ?? false;
    this.operationElement = options.operationElement ?? false;
    this.annotationTypes = schema.annotations;
  }

  /** The text written since the last chunk, made flat (see {@link flatText}). */
  take(): string {
    const s = flatText(this.out);
    this.out = '';
    return s;
  }

  /**
   * Tags of elements in their parent's namespace with no attribute, made once for each schema node:
   * `</name>`, and by depth the indentation with `<name>` and with `</name>`. A leaf is then written
   * with three appends, not seven.
   */
  private readonly endTags = new Map<SchemaNode, string>();
  private readonly indentedTags = new Map<SchemaNode, string[]>();

  /** `</name>` of `s`. */
  private endTag(s: SchemaNode): string {
    let tag = this.endTags.get(s);
    if (tag === undefined) this.endTags.set(s, (tag = `</${s.name}>`));
    return tag;
  }

  /** {@link nl} and `<name>` of `s` (or `</name>` when `end`), as an element with no attribute. */
  private plainTag(s: SchemaNode, depth: number, end: boolean): string {
    if (this.first) return `${this.nl(depth)}<${end ? '/' : ''}${s.name}>`;
    let byDepth = this.indentedTags.get(s);
    if (byDepth === undefined) this.indentedTags.set(s, (byDepth = []));
    const at = 2 * depth + (end ? 1 : 0);
    let tag = byDepth[at];
    if (tag === undefined) {
      byDepth[at] = tag = flatText(`${this.ind.at(depth)}<${end ? '/' : ''}${s.name}>`);
    }
    return tag;
  }

  /** Newline and indentation before an element, none before the very first. */
  private nl(depth: number): string {
    if (this.first) {
      this.first = false;
      return '';
    }
    return this.ind.pretty ? this.ind.at(depth) : '';
  }

  /** Writes `tree`, at `root` in a view when there is one. */
  *document(tree: InstanceTree, root: Place | undefined): Generator<string> {
    const kind = tree.kind;
    // A notification read without its envelope has no eventTime: it is written the same way (libyang's form).
    if (kind === 'notification' && tree.eventTime !== undefined) {
      this.out += `${this.nl(0)}<notification xmlns="${NOTIFICATION_NS}">`;
      this.out += `${this.nl(1)}<eventTime>${escapeXmlText(tree.eventTime)}</eventTime>`;
      yield* this.groups(tree, undefined, NOTIFICATION_NS, 1, root);
      this.out += `${this.nl(0)}</notification>`;
      return;
    }
    if (kind.endsWith('input') || kind.endsWith('output')) {
      const op = tree.operation!;
      const [part, nodes] = [...tree.children][0] ?? [];
      const name = this.operationElement ? op.name : (part?.kind ?? 'input');
      const node = nodes?.[0];
      const place = part === undefined ? undefined : root?.child(part);
      if (node !== undefined) yield* viewedInSteps(node, place, this.keepEmptyNp);
      if (node === undefined || groupsOf(node, place).length === 0) {
        this.out += `${this.nl(0)}<${name} xmlns="${op.namespace}"/>`;
        return;
      }
      this.out += `${this.nl(0)}<${name} xmlns="${op.namespace}">`;
      yield* this.groups(node, part, op.namespace, 1, place);
      this.out += `${this.nl(0)}</${name}>`;
      return;
    }
    if ((kind === 'data' || kind === 'config' || kind === 'resource') && this.wrapper) {
      const attrs =
        this.metadata && tree.annotations ? this.attributes(tree.annotations, undefined, new Map()) : '';
      yield* viewedInSteps(tree, root, this.keepEmptyNp);
      if (nothingToWrite(tree, this.keepEmptyNp, root)) {
        this.out += `${this.nl(0)}<data xmlns="${RESTCONF_NS}"${attrs}/>`;
        return;
      }
      this.out += `${this.nl(0)}<data xmlns="${RESTCONF_NS}"${attrs}>`;
      yield* this.groups(tree, tree.parent, RESTCONF_NS, 1, root);
      this.out += `${this.nl(0)}</data>`;
      return;
    }
    yield* this.groups(tree, tree.parent, '', 0, root);
  }

  private *groups(
    holder: ChildHolder,
    schemaParent: SchemaNode | undefined,
    parentNs: string,
    depth: number,
    place: Place | undefined,
  ): Generator<string> {
    yield* viewedInSteps(holder, place, this.keepEmptyNp);
    const groups = groupsToWrite(holder, schemaParent, this.keepEmptyNp, place);
    for (let i = 0; i < groups.length; i += 2) {
      const schema = groups[i] as SchemaNode;
      const entries = entriesInOrder(schema, groupAt(groups, i + 1), this.sort);
      const below = place?.child(schema);
      for (let k = 0; k < sizeOf(entries); k++) {
        const n = instanceOf(entries, k);
        if (isLarge(n)) yield* this.innerGen(n, parentNs, depth, below);
        else this.node(n, parentNs, depth, below);
        if (this.out.length >= CHUNK_SIZE) yield this.take();
      }
    }
  }

  private open(n: DataNode, parentNs: string, extra: string): string {
    const s = n.schema;
    const xmlns = s.namespace === parentNs ? '' : ` xmlns="${s.namespace}"`;
    const attrs = this.metadata && n.annotations ? this.attributes(n.annotations, s, new Map()) : '';
    return `<${s.name}${xmlns}${extra}${attrs}`;
  }

  private *innerGen(
    n: DataNode,
    parentNs: string,
    depth: number,
    place: Place | undefined,
  ): Generator<string> {
    yield* viewedInSteps(n, place, this.keepEmptyNp);
    const head = this.open(n, parentNs, '');
    if (nothingToWrite(n, this.keepEmptyNp, place)) {
      this.out += `${this.nl(depth)}${head}/>`;
      return;
    }
    this.out += `${this.nl(depth)}${head}>`;
    yield* this.groups(n, n.schema, n.schema.namespace, depth + 1, place);
    this.out += `${this.nl(depth)}</${n.schema.name}>`;
  }

  /** One instance (at `place` in a view), written without yielding. */
  private node(n: DataNode, parentNs: string, depth: number, place: Place | undefined): void {
    const s = n.schema;
    switch (s.kind) {
      case 'leaf':
      case 'leaf-list': {
        let text = n.value ?? '';
        let extra = '';
        if (usesPrefixes(s.type!)) [text, extra] = this.prefixed(n, text);
        if (n.annotations === undefined && extra === '' && s.namespace === parentNs && text !== '') {
          // The common case: no namespace, prefix or metadata to write.
          this.out += this.plainTag(s, depth, false);
          this.out += escapeXmlText(text);
          this.out += this.endTag(s);
          return;
        }
        const nl = this.nl(depth);
        const head = this.open(n, parentNs, extra);
        this.out += text === '' ? `${nl}${head}/>` : `${nl}${head}>${escapeXmlText(text)}</${s.name}>`;
        return;
      }
      case 'anydata':
      case 'anyxml': {
        const head = this.open(n, parentNs, '');
        if (n.children !== undefined) {
          // Content decoded as data: top-level nodes, each in its own namespace.
          this.element(n, head, undefined, depth, place);
          return;
        }
        const items = n.any ?? [];
        if (items.length === 0) {
          this.out += `${this.nl(depth)}${head}/>`;
          return;
        }
        const only = items[0]!;
        if (items.length === 1 && only.name === '') {
          this.out += `${this.nl(depth)}${head}>${escapeXmlText(only.text ?? '')}</${s.name}>`;
          return;
        }
        this.out += `${this.nl(depth)}${head}>`;
        for (const it of items) this.anyElement(it, s.namespace, depth + 1);
        this.out += `${this.nl(depth)}</${s.name}>`;
        return;
      }
      default:
        this.element(
          n,
          n.annotations === undefined && s.namespace === parentNs ? undefined : this.open(n, parentNs, ''),
          s,
          depth,
          place,
        );
    }
  }

  /**
   * An element holding its child instances (in the order of `schemaParent`'s children), written in
   * one go; `head` is its start tag without its `>`, undefined for an element with no attribute.
   */
  private element(
    n: DataNode,
    head: string | undefined,
    schemaParent: SchemaNode | undefined,
    depth: number,
    place: Place | undefined,
  ): void {
    if (nothingToWrite(n, this.keepEmptyNp, place)) {
      this.out += `${this.nl(depth)}${head ?? `<${n.schema.name}`}/>`;
      return;
    }
    this.out += head === undefined ? this.plainTag(n.schema, depth, false) : `${this.nl(depth)}${head}>`;
    const groups = groupsToWrite(n, schemaParent, this.keepEmptyNp, place);
    for (let i = 0; i < groups.length; i += 2) {
      const schema = groups[i] as SchemaNode;
      const entries = entriesInOrder(schema, groupAt(groups, i + 1), this.sort);
      const below = place?.child(schema);
      for (let k = 0; k < sizeOf(entries); k++)
        this.node(instanceOf(entries, k), n.schema.namespace, depth + 1, below);
    }
    this.out += this.plainTag(n.schema, depth, true);
  }

  /**
   * Written forms of identityref, instance-identifier and xpath values, by the type that decides them
   * (the union member matched, or the leaf's type), then by value: a list repeats the same ones.
   */
  private readonly prefixedCache = new Map<YangType, Map<string, [string, string]>>();
  private prefixedCount = 0;

  /** A value that uses prefixes, as XML text with the declarations its element needs. */
  private prefixed(n: DataNode, value: string): [string, string] {
    const type = n.member ?? n.schema.type!;
    let byValue = this.prefixedCache.get(type);
    if (byValue === undefined) this.prefixedCache.set(type, (byValue = new Map()));
    let out = byValue.get(value);
    if (out === undefined) {
      const decls = new Map<string, string>();
      const text = valueToXml(this.schema, n.schema.type!, n.member, value, (p, ns) => {
        if (!decls.has(p)) decls.set(p, ns);
      });
      out = [text, namespaceDeclarations(decls)];
      if (this.prefixedCount < 4096) {
        byValue.set(value, out);
        this.prefixedCount++;
      }
    }
    return out;
  }

  /** anydata/anyxml content: a default namespace wherever it differs from the enclosing element's. */
  private anyElement(e: AnyElement, parentNs: string, depth: number): void {
    const xmlns = e.ns === parentNs || e.ns === '' ? '' : ` xmlns="${escapeXmlAttribute(e.ns)}"`;
    const attrs = this.metadata && e.annotations ? this.attributes(e.annotations, undefined, new Map()) : '';
    const head = `<${e.name}${xmlns}${attrs}`;
    if (e.children === undefined) {
      const t = e.text ?? '';
      this.out +=
        t === '' ? `${this.nl(depth)}${head}/>` : `${this.nl(depth)}${head}>${escapeXmlText(t)}</${e.name}>`;
      return;
    }
    if (e.children.length === 0) {
      this.out += `${this.nl(depth)}${head}/>`;
      return;
    }
    this.out += `${this.nl(depth)}${head}>`;
    for (const c of e.children) this.anyElement(c, e.ns === '' ? parentNs : e.ns, depth + 1);
    this.out += `${this.nl(depth)}</${e.name}>`;
  }

  /** RFC 7952 5.1: each annotation an attribute in its module's namespace, the prefix declared alongside. */
  private attributes(
    anns: readonly Annotation[],
    owner: SchemaNode | undefined,
    declared: Map<string, string>,
  ): string {
    let out = '';
    const declare = (p: string, u: string) => {
      if (!declared.has(p)) {
        declared.set(p, u);
        out += ` xmlns:${p}="${escapeXmlAttribute(u)}"`;
      }
    };
    for (const a of anns) {
      if (isFilterAttribute(owner, a.module, a.name)) {
        // RFC 6241 section 7.1: unqualified, select with the prefixes it uses declared.
        const value = a.name === 'select' ? xpathToXml(this.schema, a.value, declare) : a.value;
        out += ` ${a.name}="${escapeXmlAttribute(value)}"`;
        continue;
      }
      const known = knownAnnotation(a.module, a.name);
      const ns = known?.namespace ?? this.schema.moduleByName(a.module)?.namespace;
      if (ns === undefined) continue;
      const prefix = known?.prefix ?? prefixOfModule(this.schema, a.module);
      declare(prefix, ns);
      const def = this.annotationTypes.get(`${a.module}:${a.name}`);
      const value =
        def === undefined ? a.value : valueToXml(this.schema, def.type, undefined, a.value, declare);
      out += ` ${prefix}:${a.name}="${escapeXmlAttribute(value)}"`;
    }
    return out;
  }
}
