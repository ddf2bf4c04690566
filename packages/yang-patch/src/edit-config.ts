import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import { CompactChildMap, type DataNode, emptyTree, encodeXml } from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { YangPatchError } from './errors.js';
import { describePath } from './paths.js';
import { type DatastoreEdit, isCombinable, type PatchPlan } from './plan.js';
import type { PathStep } from './types.js';

/** NETCONF base namespace (RFC 6241): `<config>` and the `operation` attribute. */
export const NETCONF_BASE_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';
/** YANG XML namespace (RFC 7950 section 7.8.6): the `insert`, `key` and `value` attributes. */
export const YANG_XML_NS = 'urn:ietf:params:xml:ns:yang:1';

/** Options of {@link toEditConfig}. */
export interface EditConfigOptions {
  /**
   * `auto` (default): one document for the whole plan when no two edits touch overlapping nodes and no
   * insert/move is placed relative to another edit's node, else one per edit. `per-edit`: always one per
   * datastore edit.
   */
  readonly mode?: 'auto' | 'per-edit';
}

/** One `<config>` document for `<edit-config>` and the patch edits it carries. */
export interface EditConfigDocument {
  readonly editIds: readonly string[];
  /** `<config xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" ...>...</config>` */
  readonly config: string;
}

/** The NETCONF form of a plan. */
export interface EditConfigPlan {
  /** True when the whole plan is one document. */
  readonly combined: boolean;
  /** Run in order against the candidate datastore; discard the changes if one fails (all or none). */
  readonly documents: readonly EditConfigDocument[];
}

interface Trie {
  readonly open: string;
  readonly close: string;
  readonly children: Map<string, Trie>;
  readonly items: (Trie | string)[];
}

function newTrie(open: string, close: string): Trie {
  return { open, close, children: new Map(), items: [] };
}

/**
 * Maps a plan onto NETCONF `<edit-config>` `<config>` content (RFC 6241 section 7.2): each edit's node
 * carries `nc:operation` (create, delete, merge, replace, remove) inside its ancestors (containers, and list
 * entries with their keys); insert and move carry `yang:insert` with `yang:key` (lists) or `yang:value`
 * (leaf-lists) as RFC 7950 section 7.8.6 defines; a move is a merge of the existing entry. Run the documents
 * in order against the candidate datastore and discard the changes on the first error, so the patch is
 * applied atomically.
 *
 * @throws {YangPatchError} `NOT_REPRESENTABLE` for a delete or remove of a whole list or leaf-list
 */
export function toEditConfig(
  schema: SchemaTree,
  plan: PatchPlan,
  options: EditConfigOptions = {},
): EditConfigPlan {
  const combined = (options.mode ?? 'auto') === 'auto' && plan.edits.length > 1 && isCombinable(plan.edits);
  const groups = combined ? [plan.edits] : plan.edits.map((e) => [e]);
  const documents = groups.map((edits) => {
    const root = newTrie('', '');
    for (const edit of edits) addEdit(schema, root, edit);
    const editIds = [...new Set(edits.map((e) => e.editId))];
    return {
      editIds,
      config: `<config xmlns="${NETCONF_BASE_NS}" xmlns:nc="${NETCONF_BASE_NS}" xmlns:yang="${YANG_XML_NS}">${write(root)}</config>`,
    };
  });
  return { combined, documents };
}

function write(t: Trie): string {
  let out = t.open;
  for (const item of t.items) out += typeof item === 'string' ? item : write(item);
  return out + t.close;
}

function addEdit(schema: SchemaTree, root: Trie, edit: DatastoreEdit): void {
  let t = root;
  let ns = NETCONF_BASE_NS;
  for (const step of edit.target.slice(0, -1)) {
    const id = stepId(step);
    let next = t.children.get(id);
    if (next === undefined) {
      const s = step.schema;
      next = newTrie(
        `<${s.name}${s.namespace === ns ? '' : ` xmlns="${s.namespace}"`}>${keysXml(schema, step)}`,
        `</${s.name}>`,
      );
      t.children.set(id, next);
      t.items.push(next);
    }
    t = next;
    ns = step.schema.namespace;
  }
  t.items.push(targetXml(schema, edit, ns));
}

function stepId(step: PathStep): string {
  return `${step.schema.module}:${step.schema.name}${JSON.stringify(step.keys ?? step.value ?? null)}`;
}

/** XML text of a key or leaf-list value: identityrefs keep their `module:` prefix, declared here. */
function valueXml(tree: SchemaTree, schema: SchemaNode, value: string): { text: string; xmlns: string } {
  const colon = value.indexOf(':');
  const ns = colon > 0 ? tree.moduleByName(value.slice(0, colon))?.namespace : undefined;
  if (schema.type?.base === 'identityref' && ns !== undefined) {
    // The module name serves as the prefix, bound to that module's namespace.
    return {
      text: escapeXmlText(value),
      xmlns: ` xmlns:${value.slice(0, colon)}="${escapeXmlAttribute(ns)}"`,
    };
  }
  return { text: escapeXmlText(value), xmlns: '' };
}

function keysXml(tree: SchemaTree, step: PathStep): string {
  let out = '';
  for (const k of step.keys ?? []) {
    const keyNode = step.schema.keyNodes.find((n) => n.name === k.name);
    const v =
      keyNode === undefined ? { text: escapeXmlText(k.value), xmlns: '' } : valueXml(tree, keyNode, k.value);
    out += `<${k.name}${v.xmlns}>${v.text}</${k.name}>`;
  }
  return out;
}

function insertAttributes(schema: SchemaTree, edit: DatastoreEdit): string {
  const at = edit.insert;
  if (at === undefined) return '';
  let out = ` yang:insert="${at.where}"`;
  const point = at.point?.[at.point.length - 1];
  if (point === undefined || (at.where !== 'before' && at.where !== 'after')) return out;
  if (point.value !== undefined) return `${out} yang:value="${escapeXmlAttribute(point.value)}"`;
  // RFC 7950 7.8.6: yang:key holds the key predicates of the point entry, prefixes declared in scope.
  const prefix = schema.moduleByName(point.schema.module)?.prefix ?? point.schema.module;
  let key = '';
  for (const k of point.keys ?? []) key += `[${prefix}:${k.name}=${quote(k.value)}]`;
  out += ` yang:key="${escapeXmlAttribute(key)}" xmlns:${prefix}="${escapeXmlAttribute(point.schema.namespace)}"`;
  return out;
}

function quote(value: string): string {
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}

function targetXml(schema: SchemaTree, edit: DatastoreEdit, parentNs: string): string {
  const step = edit.target[edit.target.length - 1]!;
  const s = step.schema;
  const op = edit.operation === 'move' ? 'merge' : edit.operation;
  const attrs = ` nc:operation="${op}"${insertAttributes(schema, edit)}`;
  if (edit.node !== undefined) return encodeNode(schema, edit.node, attrs);
  const whole =
    (s.kind === 'list' && step.keys === undefined) || (s.kind === 'leaf-list' && step.value === undefined);
  if (whole) {
    throw new YangPatchError(
      'NOT_REPRESENTABLE',
      `edit-config cannot ${edit.operation} every entry of ${describePath(edit.target)} without naming them`,
      { editId: edit.editId },
    );
  }
  const xmlns = s.namespace === parentNs ? '' : ` xmlns="${s.namespace}"`;
  if (step.value !== undefined) {
    const v = valueXml(schema, s, step.value);
    return `<${s.name}${xmlns}${v.xmlns}${attrs}>${v.text}</${s.name}>`;
  }
  const keys = keysXml(schema, step);
  return keys === '' ? `<${s.name}${xmlns}${attrs}/>` : `<${s.name}${xmlns}${attrs}>${keys}</${s.name}>`;
}

/** The codec's XML of one instance with `attrs` added to its start tag. */
function encodeNode(schema: SchemaTree, node: DataNode, attrs: string): string {
  const xml = encodeXml({ ...emptyTree(schema), children: new CompactChildMap([[node.schema, [node]]]) });
  const head = `<${node.schema.name}`;
  return `${head}${attrs}${xml.slice(head.length)}`;
}
