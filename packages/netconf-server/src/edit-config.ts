import { NETCONF_BASE_NS } from '@yangkit/netconf-client';
import { innerXml, textOf, type XmlElement } from '@yangkit/xml';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { childAt, type DataNode, entries, joinKey } from './data-tree.js';
import type { Datastore } from './datastore.js';
import { pathOfChild, pathOfNode } from './error-path.js';
import { RpcError, type RpcErrorFields } from './errors.js';
import { readValue } from './values.js';

/** RFC 6241 7.2 operation attribute values. */
export type EditOperation = 'merge' | 'replace' | 'create' | 'delete' | 'remove' | 'none';
/** RFC 6241 7.2 error-option values. */
export type ErrorOption = 'stop-on-error' | 'continue-on-error' | 'rollback-on-error';

/** YANG XML namespace of the insert/key/value attributes (RFC 7950 7.8.6). */
export const YANG_NS = 'urn:ietf:params:xml:ns:yang:1';

/** Options of {@link applyEdit}. */
export interface EditOptions {
  readonly defaultOperation: EditOperation;
  readonly errorOption: ErrorOption;
  /** Accept config false nodes and notifications (state trees and events the server builds). */
  readonly allowState?: boolean;
  /** Largest number of elements one edit may hold (default 10,000,000). */
  readonly maxNodes?: number;
}

const OPERATIONS = new Set(['merge', 'replace', 'create', 'delete', 'remove']);

/**
 * Applies the content of an `<edit-config>` `<config>` element (RFC 6241 section 7.2) to a datastore:
 * every operation, default-operation, the error-options, insert/key/value for user-ordered lists
 * (RFC 7950 7.8.6) and choice exclusivity (7.9). Values are checked against their types. Throws an
 * {@link RpcError} holding every error; with stop-on-error and continue-on-error the changes made
 * before (and around) the errors stay, with rollback-on-error none do.
 */
export function applyEdit(
  tree: SchemaTree,
  ds: Datastore,
  config: readonly XmlElement[],
  options: EditOptions,
): void {
  const editor = new Editor(tree, ds, options);
  const mark = ds.mark();
  editor.children(ds.root, undefined, config, options.defaultOperation);
  if (editor.errors.length > 0) {
    if (options.errorOption === 'rollback-on-error') ds.undoTo(mark);
    throw new RpcError(editor.errors[0]!, editor.errors.slice(1));
  }
}

class Abort extends Error {}

class Editor {
  readonly errors: RpcErrorFields[] = [];
  private count = 0;
  private readonly maxNodes: number;

  constructor(
    readonly tree: SchemaTree,
    readonly ds: Datastore,
    readonly options: EditOptions,
  ) {
    this.maxNodes = options.maxNodes ?? 10_000_000;
  }

  private fail(e: RpcError | RpcErrorFields): void {
    const fields = e instanceof RpcError ? e.errors : [e];
    this.errors.push(...fields);
    if (this.options.errorOption !== 'continue-on-error') throw new Abort();
  }

  /** Applies sibling elements under `parent`. */
  children(
    parent: DataNode,
    parentSchema: SchemaNode | undefined,
    els: readonly XmlElement[],
    inherited: EditOperation,
  ): void {
    for (const el of els) {
      try {
        this.element(parent, parentSchema, el, inherited);
      } catch (error) {
        if (error instanceof Abort) {
          if (this.options.errorOption === 'continue-on-error') continue;
          return;
        }
        if (error instanceof RpcError) {
          this.errors.push(...error.errors);
          if (this.options.errorOption === 'continue-on-error') continue;
          return;
        }
        throw error;
      }
    }
  }

  private resolve(parent: DataNode, parentSchema: SchemaNode | undefined, el: XmlElement): SchemaNode {
    const ns = el.ns;
    const module = this.tree.moduleByNamespace(ns);
    const path = pathOfNode(parent);
    if (!module) {
      throw new RpcError({
        errorType: 'application',
        errorTag: 'unknown-namespace',
        errorMessage: `namespace "${ns}" of element "${el.local}" belongs to no module of the server`,
        errorPath: path.path,
        errorPathNamespaces: path.namespaces,
        errorInfo: { 'bad-element': el.local, 'bad-namespace': ns },
      });
    }
    const schema =
      parentSchema === undefined
        ? this.tree.topLevel(module.name, el.local)
        : parentSchema.dataChild(module.name, el.local);
    if (
      !schema ||
      schema.kind === 'rpc' ||
      schema.kind === 'action' ||
      (schema.kind === 'notification' && !this.options.allowState)
    ) {
      throw new RpcError({
        errorType: 'application',
        errorTag: 'unknown-element',
        errorMessage: `unknown element "${el.local}" in ${parentSchema ? `${parentSchema.kind} "${parentSchema.name}"` : 'the datastore'}`,
        errorPath: path.path,
        errorPathNamespaces: path.namespaces,
        errorInfo: { 'bad-element': el.local },
      });
    }
    if (!schema.config && !this.options.allowState) {
      const p = pathOfChild(parent, schema);
      throw new RpcError({
        errorType: 'application',
        errorTag: 'invalid-value',
        errorMessage: `${schema.kind} "${schema.name}" is state data (config false) and cannot be edited`,
        errorPath: p.path,
        errorPathNamespaces: p.namespaces,
        errorInfo: { 'bad-element': el.local },
      });
    }
    return schema;
  }

  private operationOf(
    el: XmlElement,
    inherited: EditOperation,
    parent: DataNode,
    schema: SchemaNode,
  ): EditOperation {
    const attr = el.attributes.find((a) => a.local === 'operation' && a.ns === NETCONF_BASE_NS);
    if (!attr) return inherited;
    if (!OPERATIONS.has(attr.value)) {
      const p = pathOfChild(parent, schema);
      throw new RpcError({
        errorType: 'protocol',
        errorTag: 'bad-attribute',
        errorMessage: `operation "${attr.value}" is not one of merge, replace, create, delete, remove`,
        errorPath: p.path,
        errorPathNamespaces: p.namespaces,
        errorInfo: { 'bad-attribute': 'operation', 'bad-element': el.local },
      });
    }
    return attr.value as EditOperation;
  }

  private value(parent: DataNode, schema: SchemaNode, el: XmlElement): string {
    const text = textOf(el);
    const r = readValue(this.tree, schema, text, el.scope);
    if (!r.ok) {
      const p = pathOfChild(parent, schema);
      throw new RpcError({
        errorType: 'application',
        errorTag: 'invalid-value',
        errorAppTag: r.errorAppTag,
        errorMessage: r.errorMessage ?? `invalid value for ${schema.kind} "${schema.name}": ${r.message}`,
        errorPath: p.path,
        errorPathNamespaces: p.namespaces,
        errorInfo: {
          'bad-value': text.length > 256 ? `${text.slice(0, 253)}...` : text,
          'bad-element': schema.name,
        },
      });
    }
    return r.value;
  }

  private listKey(parent: DataNode, schema: SchemaNode, el: XmlElement): string {
    const values: string[] = [];
    for (const k of schema.keyNodes) {
      const kel = el.children.find(
        (c): c is XmlElement => typeof c !== 'string' && c.local === k.name && c.ns === k.namespace,
      );
      if (!kel) {
        const p = pathOfChild(parent, schema);
        throw new RpcError({
          errorType: 'protocol',
          errorTag: 'missing-element',
          errorMessage: `list "${schema.name}" entry lacks its key leaf "${k.name}"`,
          errorPath: p.path,
          errorPathNamespaces: p.namespaces,
          errorInfo: { 'bad-element': k.name },
        });
      }
      values.push(this.value(parent, k, kel));
    }
    return joinKey(values);
  }

  private element(
    parent: DataNode,
    parentSchema: SchemaNode | undefined,
    el: XmlElement,
    inherited: EditOperation,
  ): void {
    if (++this.count > this.maxNodes) {
      throw new RpcError({
        errorType: 'application',
        errorTag: 'too-big',
        errorMessage: `an edit holds more than ${this.maxNodes} elements`,
      });
    }
    const schema = this.resolve(parent, parentSchema, el);
    const op = this.operationOf(el, inherited, parent, schema);
    if (schema.isKey && parent.schema?.kind === 'list') {
      // RFC 6241 7.2: keys identify the entry; an operation on a key leaf other than the entry's is refused.
      if (op === 'delete' || op === 'remove') {
        const p = pathOfChild(parent, schema);
        this.fail({
          errorType: 'protocol',
          errorTag: 'bad-attribute',
          errorMessage: `key leaf "${schema.name}" cannot be deleted alone`,
          errorPath: p.path,
          errorPathNamespaces: p.namespaces,
          errorInfo: { 'bad-attribute': 'operation' },
        });
      }
      return;
    }
    let key = '';
    const deleting = op === 'delete' || op === 'remove';
    if (schema.kind === 'list') key = this.listKey(parent, schema, el);
    else if (schema.kind === 'leaf-list') key = this.value(parent, schema, el);
    const existing = childAt(parent, { schema, key });
    const keysOf = (): string[] | undefined =>
      schema.kind === 'list' ? key.split('\u0000') : schema.kind === 'leaf-list' ? [key] : undefined;
    if (deleting) {
      if (!existing) {
        if (op === 'delete') {
          const p = pathOfChild(parent, schema, keysOf());
          this.fail({
            errorType: 'application',
            errorTag: 'data-missing',
            errorMessage: `${schema.kind} "${schema.name}" does not exist, so it cannot be deleted`,
            errorPath: p.path,
            errorPathNamespaces: p.namespaces,
          });
        }
        return;
      }
      this.ds.remove(existing);
      return;
    }
    if (op === 'create' && existing) {
      const p = pathOfChild(parent, schema, keysOf());
      this.fail({
        errorType: 'application',
        errorTag: 'data-exists',
        errorMessage: `${schema.kind} "${schema.name}" already exists`,
        errorPath: p.path,
        errorPathNamespaces: p.namespaces,
      });
      return;
    }
    if (schema.kind === 'leaf' || schema.kind === 'leaf-list') {
      if (op === 'none') return;
      if (schema.kind === 'leaf') {
        const value = this.value(parent, schema, el);
        if (existing) this.ds.set(existing, value);
        else this.created(parent, this.ds.create(parent, schema, '', value));
      } else {
        const node = existing ?? this.created(parent, this.ds.create(parent, schema, key, key));
        this.insert(parent, schema, node, el, !existing);
      }
      return;
    }
    if (schema.kind === 'anydata' || schema.kind === 'anyxml') {
      if (op === 'none') return;
      const xml = innerXml(el);
      if (existing) this.ds.set(existing, undefined, xml);
      else this.created(parent, this.ds.create(parent, schema, '', undefined, xml));
      return;
    }
    const content = el.children.filter((c): c is XmlElement => typeof c !== 'string');
    let node = existing;
    if (op === 'replace' && node) {
      this.ds.remove(node);
      node = undefined;
    }
    if (!node) {
      if (op === 'none' && content.length === 0) return;
      if ((op === 'merge' || op === 'none') && !needsCreate(content, op)) {
        // Only deletes and removes below a missing node: run them on an empty stand-in so that a
        // delete reports data-missing and a remove is a no-op; nothing is created.
        const standIn: DataNode = { schema, parent, key, value: undefined, xml: undefined, kids: new Map() };
        this.children(standIn, schema, content, 'none');
        return;
      }
      node = this.created(parent, this.ds.create(parent, schema, key));
      if (schema.kind === 'list') {
        for (const k of schema.keyNodes) {
          const kel = content.find((c) => c.local === k.name && c.ns === k.namespace)!;
          this.ds.create(node, k, '', this.value(node, k, kel));
        }
      }
    }
    if (schema.kind === 'list') this.insert(parent, schema, node, el, !existing);
    const childOp: EditOperation = op === 'replace' || op === 'create' ? 'merge' : op;
    this.children(node, schema, content, childOp);
  }

  /** RFC 7950 7.9: creating a node of one case removes the nodes of the choice's other cases. */
  private created(parent: DataNode, node: DataNode): DataNode {
    const schema = node.schema!;
    for (
      let own: SchemaNode | undefined = schema;
      own?.parent && own.parent !== parent.schema;
      own = own.parent
    ) {
      const choice: SchemaNode = own.parent;
      if (choice.kind !== 'choice' || !parent.kids) continue;
      for (const [childSchema, slot] of [...parent.kids]) {
        if (childSchema === schema) continue;
        let c: SchemaNode | undefined = childSchema;
        while (c && c.parent !== choice) c = c.parent;
        if (!c || c === own) continue;
        if (slot instanceof Map) for (const n of [...slot.values()]) this.ds.remove(n);
        else this.ds.remove(slot);
      }
    }
    return node;
  }

  /** RFC 7950 7.8.6 / 7.7.9: insert="first|last|before|after" with key= or value= on user-ordered lists. */
  private insert(parent: DataNode, schema: SchemaNode, node: DataNode, el: XmlElement, isNew: boolean): void {
    const insert = el.attributes.find((a) => a.local === 'insert' && a.ns === YANG_NS)?.value;
    if (schema.orderedBy !== 'user') return;
    if (insert === undefined) return;
    const p = (): ReturnType<typeof pathOfChild> =>
      pathOfChild(parent, schema, schema.kind === 'list' ? node.key.split('\u0000') : [node.key]);
    if (insert === 'first' || insert === 'last') {
      this.ds.move(node, insert);
      return;
    }
    if (insert !== 'before' && insert !== 'after') {
      const ep = p();
      throw new RpcError({
        errorType: 'protocol',
        errorTag: 'bad-attribute',
        errorMessage: `insert="${insert}" is not first, last, before or after`,
        errorPath: ep.path,
        errorPathNamespaces: ep.namespaces,
        errorInfo: { 'bad-attribute': 'insert', 'bad-element': schema.name },
      });
    }
    const attrName = schema.kind === 'list' ? 'key' : 'value';
    const anchorAttr = el.attributes.find((a) => a.local === attrName && a.ns === YANG_NS)?.value;
    const anchor =
      anchorAttr === undefined
        ? undefined
        : schema.kind === 'list'
          ? parseKeyPredicates(anchorAttr)
          : anchorAttr;
    const map = entries(parent, schema);
    if (anchor === undefined || !map?.has(anchor) || anchor === node.key) {
      const ep = p();
      throw new RpcError({
        errorType: 'protocol',
        errorTag: anchorAttr === undefined ? 'missing-attribute' : 'bad-attribute',
        errorAppTag: anchorAttr === undefined ? undefined : 'missing-instance',
        errorMessage:
          anchorAttr === undefined
            ? `insert="${insert}" needs a ${attrName} attribute`
            : `the ${attrName} attribute "${anchorAttr}" names no existing entry`,
        errorPath: ep.path,
        errorPathNamespaces: ep.namespaces,
        errorInfo: { 'bad-attribute': attrName, 'bad-element': schema.name },
      });
    }
    void isNew;
    this.ds.move(node, insert, anchor);
  }
}

/** True when an edit below holds something that creates data (so its missing ancestors are created). */
function needsCreate(els: readonly XmlElement[], inherited: EditOperation, depth = 0): boolean {
  if (depth > 256) return true;
  for (const el of els) {
    const own = el.attributes.find((a) => a.local === 'operation' && a.ns === NETCONF_BASE_NS)?.value;
    const op = own ?? inherited;
    if (op === 'delete' || op === 'remove') continue;
    if (op !== 'none') return true;
    if (
      needsCreate(
        el.children.filter((c): c is XmlElement => typeof c !== 'string'),
        'none',
        depth + 1,
      )
    )
      return true;
  }
  return false;
}

/** Parses the key attribute `[p:name='v'][p:other='w']` into the entry key. */
export function parseKeyPredicates(text: string): string | undefined {
  const values: string[] = [];
  const re = /\[\s*(?:[\w.-]+:)?[\w.-]+\s*=\s*(?:'([^']*)'|"([^"]*)")\s*\]/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  const trimmed = text.trim();
  while ((m = re.exec(trimmed)) !== null) {
    values.push(m[1] ?? m[2] ?? '');
    end = re.lastIndex;
  }
  if (values.length === 0 || end !== trimmed.length) return undefined;
  return joinKey(values);
}
