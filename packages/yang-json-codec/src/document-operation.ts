import { streamXml, type XmlElement, XmlError, type XmlSink } from '@yangkit/xml';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { NETCONF_NS, YANG_XML_NS } from './decode-xml';
import { splitName } from './schema-view';

/*
 * Finds the rpc or action a document names by itself, as libyang reads it (yanglint `-t rpc`): the
 * operation element or member, or the data nodes leading to an action (RFC 7950 sections 7.14.2 and
 * 7.15.2), with or without the NETCONF `<rpc>` (and `<action>`) envelope. The RESTCONF form (`<input>`,
 * `"mod:input"`) names no operation.
 */

/** True for the kinds of schema node a path to an action passes through. */
function leadsFurther(node: SchemaNode | undefined): boolean {
  return node?.kind === 'container' || node?.kind === 'list';
}

function isOperation(node: SchemaNode | undefined): boolean {
  return node?.kind === 'rpc' || node?.kind === 'action';
}

/** The rpc or action an XML document names, or undefined when it names none. */
export function operationOfXml(tree: SchemaTree, xml: string): SchemaNode | undefined {
  const finder = new XmlOperationFinder(tree);
  try {
    streamXml(xml, finder);
  } catch (error) {
    if (!XmlError.isInstance(error)) throw error;
    return undefined; // decodeXml reports the malformed text
  }
  return finder.found;
}

class XmlOperationFinder implements XmlSink {
  found: SchemaNode | undefined;
  /** Per open element: the data node it is, `null` for an envelope, undefined when it leads nowhere. */
  private readonly frames: (SchemaNode | null | undefined)[] = [];

  constructor(private readonly tree: SchemaTree) {}

  open(el: XmlElement, depth: number): 'stream' {
    const parent = depth === 0 ? null : this.frames[depth - 1];
    let node: SchemaNode | null | undefined;
    if (this.found !== undefined || parent === undefined) node = undefined;
    else if (parent === null && isEnvelope(el)) node = null;
    else {
      const module = this.tree.moduleByNamespace(el.ns)?.name;
      const step =
        module === undefined
          ? undefined
          : parent === null
            ? this.tree.topLevel(module, el.local)
            : parent.dataChild(module, el.local);
      if (isOperation(step)) this.found = step;
      node = leadsFurther(step) ? step : undefined;
    }
    this.frames[depth] = node;
    return 'stream';
  }

  text(): void {}

  close(): void {}
}

/** `<rpc>` (RFC 6241) or `<action>` (RFC 7950 section 7.15.2) around the operation. */
function isEnvelope(el: XmlElement): boolean {
  return (
    (el.local === 'rpc' && el.ns === NETCONF_NS) ||
    (el.local === 'rpc-reply' && el.ns === NETCONF_NS) ||
    (el.local === 'action' && el.ns === YANG_XML_NS)
  );
}

/** An operation found in a JSON document with the object of its parameters. */
export interface JsonOperation {
  readonly operation: SchemaNode;
  /** The value of the operation's member: its input (or output) parameters. */
  readonly content: unknown;
}

/**
 * The rpc or action a JSON document names (`{"mod:rpc": {...}}`, or `{"mod:top": {"list": [{"key": ...,
 * "action": {...}}]}}` with one entry per list on the way), or undefined when it names none.
 */
export function operationOfJson(tree: SchemaTree, value: unknown): JsonOperation | undefined {
  let parent: SchemaNode | undefined;
  let current = value;
  for (;;) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    const next = onlyStep(tree, parent, current as Record<string, unknown>);
    if (next === undefined) return undefined;
    if (isOperation(next.node)) return { operation: next.node, content: next.value };
    parent = next.node;
    current = next.value;
    if (parent.kind === 'list') {
      if (!Array.isArray(current) || current.length !== 1) return undefined;
      current = current[0];
    }
  }
}

/**
 * The one member of `obj` that is an operation or leads to one; other data nodes, such as list keys,
 * are skipped, and a member the schema does not have means the document names no operation.
 */
function onlyStep(
  tree: SchemaTree,
  parent: SchemaNode | undefined,
  obj: Record<string, unknown>,
): { node: SchemaNode; value: unknown } | undefined {
  let found: { node: SchemaNode; value: unknown } | undefined;
  for (const key of Object.keys(obj)) {
    if (key.startsWith('@')) continue; // RFC 7952 metadata
    const [module, name] = splitName(key);
    const node =
      parent === undefined
        ? module === undefined
          ? undefined
          : tree.topLevel(module, name)
        : parent.dataChild(module ?? parent.module, name);
    if (node === undefined) return undefined; // a name the schema does not have here
    if (!isOperation(node) && !leadsFurther(node)) continue;
    if (found !== undefined) return undefined;
    found = { node, value: obj[key] };
  }
  return found;
}
