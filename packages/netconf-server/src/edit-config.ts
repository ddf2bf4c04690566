import type { XmlElement } from '@yangkit/xml';
import {
  type Annotation,
  applyEditSteps,
  CodecError,
  CompactChildMap,
  type DataNode,
  decodeXmlSteps,
  finishInSlices,
  finishSteps,
  type InsertPosition,
  type InstanceTree,
  ITEMS_PER_STEP,
  type PathStep,
  type Steps,
  stepOf,
  type TreeEdit,
} from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { Datastore } from './datastore.js';
import { codecErrorFields, RpcError, type RpcErrorFields, rpcErrorOf } from './errors.js';

/** RFC 6241 7.2 operation attribute values, and default-operation `none`. */
export type EditOperation = 'merge' | 'replace' | 'create' | 'delete' | 'remove' | 'none';
/** RFC 6241 7.2 error-option values. */
export type ErrorOption = 'stop-on-error' | 'continue-on-error' | 'rollback-on-error';

const OPERATIONS = new Set(['merge', 'replace', 'create', 'delete', 'remove']);
/** Largest number of nodes one edit may hold. */
const MAX_NODES = 10_000_000;

/**
 * Decodes the content of an `<edit-config>` `<config>` (or `<edit-data>`) with the codec: names and values
 * checked against the schema, state data refused, the `nc:operation` and `yang:insert`/`key`/`value`
 * attributes kept as annotations.
 */
export function decodeConfig(schema: SchemaTree, xml: string | readonly XmlElement[]): InstanceTree {
  return finishSteps(decodeConfigSteps(schema, xml));
}

/** {@link decodeConfig} in steps (the codec's `decodeXmlSteps`). */
export function* decodeConfigSteps(
  schema: SchemaTree,
  xml: string | readonly XmlElement[],
): Steps<InstanceTree> {
  try {
    return yield* decodeXmlSteps(schema, xml, { kind: 'config', editAttributes: true });
  } catch (error) {
    if (CodecError.isInstance(error)) throw rpcErrorOf(schema, [error])!;
    throw error;
  }
}

function bad(
  fields: Omit<RpcErrorFields, 'errorType'> & { errorType?: RpcErrorFields['errorType'] },
): RpcError {
  return new RpcError({ errorType: 'protocol', ...fields });
}

/** Removes the annotation `module:name` from a node and returns its value. */
function take(node: DataNode, module: string, name: string): string | undefined {
  const anns = node.annotations;
  const at = anns?.findIndex((a) => a.module === module && a.name === name) ?? -1;
  if (at < 0) return undefined;
  const value = anns![at]!.value;
  anns!.splice(at, 1);
  if (anns!.length === 0) node.annotations = undefined;
  return value;
}

function carriesEdit(node: DataNode): boolean {
  return (
    node.annotations?.some((a: Annotation) => a.module === 'ietf-netconf' || a.module === 'yang') === true
  );
}

function isLeafy(schema: SchemaNode): boolean {
  const k = schema.kind;
  return k === 'leaf' || k === 'leaf-list' || k === 'anydata' || k === 'anyxml';
}

/** Parses a `yang:key` attribute `[p:name='v'][p:other='w']` into keys (prefixes do not matter). */
function keysOf(text: string): { name: string; value: string }[] | undefined {
  const keys: { name: string; value: string }[] = [];
  const re = /\[\s*(?:[\w.-]+:)?([\w.-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")\s*\]/gy;
  const trimmed = text.trim();
  let end = 0;
  for (let m = re.exec(trimmed); m !== null; m = re.exec(trimmed)) {
    keys.push({ name: m[1]!, value: m[2] ?? m[3] ?? '' });
    end = re.lastIndex;
  }
  return keys.length === 0 || end !== trimmed.length ? undefined : keys;
}

/**
 * Turns decoded edit-config content into the codec's edits, in document order (RFC 6241 section 7.2):
 * a node with its own or the inherited operation is one edit; under merge (or `none`), the nodes that
 * carry an operation or an `insert` of their own become edits of their own, and their ancestors are
 * written only when something below them creates data, so a delete below a missing container creates
 * nothing. Keys identify list entries: deleting one alone is refused.
 */
export function configEdits(config: InstanceTree, defaultOperation: EditOperation): TreeEdit[] {
  return finishSteps(configEditsSteps(config, defaultOperation));
}

/** {@link configEdits} in steps, a step every few dozen nodes. */
export function* configEditsSteps(config: InstanceTree, defaultOperation: EditOperation): Steps<TreeEdit[]> {
  const walker = new ConfigEdits();
  for (const nodes of config.children.values())
    for (const n of nodes) yield* walker.visit(n, [], defaultOperation);
  return walker.edits;
}

/**
 * The content of an edit's `<config>` and its edits, decoded in slices of a few milliseconds, so that
 * a big config does not hold the event loop (`<edit-config>`, `<edit-data>`).
 */
export function configEditsInSlices(
  schema: SchemaTree,
  config: readonly XmlElement[],
  defaultOperation: EditOperation,
): Promise<{ content: InstanceTree; edits: TreeEdit[] }> {
  return finishInSlices(configContentSteps(schema, config, defaultOperation));
}

/** {@link configEditsInSlices} in steps. */
function* configContentSteps(
  schema: SchemaTree,
  config: readonly XmlElement[],
  defaultOperation: EditOperation,
): Steps<{ content: InstanceTree; edits: TreeEdit[] }> {
  const content = yield* decodeConfigSteps(schema, config);
  return { content, edits: yield* configEditsSteps(content, defaultOperation) };
}

interface Later {
  readonly node: DataNode;
  readonly parent: readonly PathStep[];
}

class ConfigEdits {
  readonly edits: TreeEdit[] = [];
  private count = 0;

  *visit(n: DataNode, parent: readonly PathStep[], inherited: EditOperation): Steps<void> {
    yield* this.counted();
    const own = this.operationOf(n);
    const op = own ?? inherited;
    const target = [...parent, stepOf(n)];
    const insert = this.insertOf(n, parent, target);
    const at = insert === undefined ? {} : { insert };
    switch (op) {
      case 'delete':
      case 'remove':
        this.edits.push({ operation: op, target });
        return;
      case 'create':
      case 'replace': {
        const later: Later[] = [];
        this.edits.push({ operation: op, target, node: yield* this.plain(n, target, later), ...at });
        for (const l of later) yield* this.visit(l.node, l.parent, 'merge');
        return;
      }
      default: {
        if (isLeafy(n.schema)) {
          if (op === 'merge') this.edits.push({ operation: 'merge', target, node: n, ...at });
          return;
        }
        const later: Later[] = [];
        const node = yield* this.plain(n, target, later);
        if (op === 'merge' && (hasContent(node) || insert !== undefined)) {
          this.edits.push({ operation: 'merge', target, node, ...at });
        }
        for (const l of later) yield* this.visit(l.node, l.parent, op);
      }
    }
  }

  /** Counts a node of the edit: refused past {@link MAX_NODES}; a step every few dozen. */
  private *counted(): Steps<void> {
    if (++this.count > MAX_NODES) {
      throw new RpcError({
        errorType: 'application',
        errorTag: 'too-big',
        errorMessage: `an edit holds more than ${MAX_NODES} nodes`,
      });
    }
    if (this.count % ITEMS_PER_STEP === 0) yield;
  }

  /** RFC 6241 7.2 `operation`: read, checked and taken off the node. */
  private operationOf(n: DataNode): EditOperation | undefined {
    const value = take(n, 'ietf-netconf', 'operation');
    if (value === undefined) return undefined;
    if (!OPERATIONS.has(value)) {
      throw bad({
        errorTag: 'bad-attribute',
        errorMessage: `operation "${value}" is not one of merge, replace, create, delete, remove`,
        errorInfo: { 'bad-attribute': 'operation', 'bad-element': n.schema.name },
      });
    }
    return value as EditOperation;
  }

  /** RFC 7950 7.8.6 / 7.7.9 `insert` with `key` or `value`, for user-ordered lists and leaf-lists. */
  private insertOf(
    n: DataNode,
    parent: readonly PathStep[],
    target: readonly PathStep[],
  ): InsertPosition | undefined {
    const where = take(n, 'yang', 'insert');
    const key = take(n, 'yang', 'key');
    const value = take(n, 'yang', 'value');
    const schema = n.schema;
    if (where === undefined || schema.orderedBy !== 'user') return undefined;
    if (where === 'first' || where === 'last') return { where };
    if (where !== 'before' && where !== 'after') {
      throw bad({
        errorTag: 'bad-attribute',
        errorMessage: `insert="${where}" is not first, last, before or after`,
        errorInfo: { 'bad-attribute': 'insert', 'bad-element': schema.name },
      });
    }
    const attr = schema.kind === 'list' ? 'key' : 'value';
    const text = schema.kind === 'list' ? key : value;
    if (text === undefined) {
      throw bad({
        errorTag: 'missing-attribute',
        errorMessage: `insert="${where}" needs a ${attr} attribute`,
        errorInfo: { 'bad-attribute': attr, 'bad-element': schema.name },
      });
    }
    const keys = schema.kind === 'list' ? keysOf(text) : undefined;
    const step: PathStep | undefined =
      schema.kind === 'list' ? (keys === undefined ? undefined : { schema, keys }) : { schema, value: text };
    const last = target[target.length - 1]!;
    if (
      step === undefined ||
      (step.value !== undefined && step.value === last.value) ||
      sameKeys(step, last)
    ) {
      throw bad({
        errorTag: 'bad-attribute',
        errorAppTag: 'missing-instance',
        errorMessage: `the ${attr} attribute "${text}" names no other entry`,
        errorInfo: { 'bad-attribute': attr, 'bad-element': schema.name },
      });
    }
    return { where, point: [...parent, step] };
  }

  /**
   * A copy of `n`'s subtree without the descendants that carry an operation or insert of their own (they
   * go to `later`, to be edits of their own), and without inner nodes left empty by that.
   */
  private *plain(n: DataNode, path: readonly PathStep[], later: Later[]): Steps<DataNode> {
    const copy: DataNode = { ...n, children: n.children === undefined ? undefined : new CompactChildMap() };
    if (n.children === undefined || n.schema.kind === 'anydata' || n.schema.kind === 'anyxml') {
      copy.children = n.children;
      return copy;
    }
    for (const [schema, nodes] of n.children) {
      const kept: DataNode[] = [];
      for (const c of nodes) {
        if (schema.isKey && n.schema.kind === 'list') {
          const op = this.operationOf(c);
          if (op === 'delete' || op === 'remove') {
            throw bad({
              errorTag: 'bad-attribute',
              errorMessage: `key leaf "${schema.name}" cannot be ${op}d alone`,
              errorInfo: { 'bad-attribute': 'operation', 'bad-element': schema.name },
            });
          }
          kept.push(c);
          continue;
        }
        yield* this.counted();
        if (carriesEdit(c)) {
          later.push({ node: c, parent: path });
          continue;
        }
        const child = yield* this.plain(c, [...path, stepOf(c)], later);
        if (isLeafy(schema) || schema.kind === 'list' || schema.presence !== undefined || hasContent(child)) {
          child.parent = copy;
          kept.push(child);
        }
      }
      if (kept.length > 0) copy.children!.set(schema, kept);
    }
    return copy;
  }
}

function hasContent(node: DataNode): boolean {
  return node.children !== undefined && node.children.size > 0;
}

function sameKeys(a: PathStep, b: PathStep): boolean {
  if (a.keys === undefined || b.keys === undefined || a.keys.length !== b.keys.length) return false;
  return a.keys.every((k) => b.keys!.some((o) => o.name === k.name && o.value === k.value));
}

/**
 * Applies edits to a datastore through its change log with the RFC 6241 7.2 error-option: stop at the
 * first error (what came before stays), continue past every error, or undo everything on an error. Throws
 * one {@link RpcError} holding every error. The datastore takes the edits' nodes as its own (see the
 * codec's `applyEdit` option `adopt`): they are used once.
 */
export function applyEdits(
  schema: SchemaTree,
  ds: Datastore,
  edits: readonly TreeEdit[],
  errorOption: ErrorOption,
): void {
  finishSteps(applyEditsSteps(schema, ds, edits, errorOption));
}

/** {@link applyEdits} in steps, a step after each node added (the codec's `applyEditSteps`). */
export function* applyEditsSteps(
  schema: SchemaTree,
  ds: Datastore,
  edits: readonly TreeEdit[],
  errorOption: ErrorOption,
): Steps<void> {
  const mark = ds.mark();
  const errors: RpcErrorFields[] = [];
  for (const edit of edits) {
    try {
      yield* applyEditSteps(ds, edit, { adopt: true });
    } catch (error) {
      if (!CodecError.isInstance(error)) throw error;
      errors.push(codecErrorFields(schema, error));
      if (errorOption !== 'continue-on-error') break;
    }
  }
  if (errors.length === 0) return;
  if (errorOption === 'rollback-on-error') yield* ds.undoToSteps(mark);
  throw new RpcError(errors[0]!, errors.slice(1));
}

/**
 * RFC 6241 7.2 default-operation replace: the top-level nodes of the datastore other than `kept` (the
 * top-level nodes of the new content, which its edits replace) are removed.
 */
export function replaceAllEdits(ds: Datastore, kept: ReadonlySet<SchemaNode>): TreeEdit[] {
  const out: TreeEdit[] = [];
  for (const [schema, nodes] of ds.tree.children) {
    if (kept.has(schema)) continue;
    for (const n of nodes) out.push({ operation: 'remove', target: [stepOf(n)] });
  }
  return out;
}
