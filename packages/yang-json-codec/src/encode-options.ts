import type { SchemaNode } from '@yangkit/yang-schema';
import {
  type ChildPairs,
  firstChild,
  type Group,
  groupAt,
  instanceOf,
  pairsOf,
  type Slot,
  sizeOf,
} from './child-map';
import type { ChildHolder, DataNode } from './instance';
import { pairsInSchemaOrder, pairsSorted } from './instance';
import { finishSteps, type Steps } from './steps';
import { resolveLeafref } from './values';
import { isTruncatedByDepth, type Place, type TreeView } from './view';

/** Options both encoders share. */
export interface EncodeOptions {
  /**
   * Spaces of indentation per level (the server's `--message-indent`); 0 or negative writes everything on
   * one line (default -1).
   */
  readonly indent?: number;
  /** Write empty non-presence containers (`return-empty-npcontainers`, default true). */
  readonly returnEmptyNpContainers?: boolean;
  /**
   * Sort entries of `ordered-by system` lists by key and leaf-lists by value (`--system-sorted`, default
   * false); `true` is `'ascending'`, `'descending'` reverses the order (`--system-sort-type`).
   */
  readonly sortSystemOrdered?: SystemSort;
  /** Write RFC 7952 metadata (default true; `--with-json-metadata`). */
  readonly metadata?: boolean;
  /**
   * data/config kinds: wrap the top-level nodes in `ietf-restconf:data` (default false). In XML the
   * resource kind too: several instances (every entry of a list) need one root element.
   */
  readonly wrapper?: boolean;
  /**
   * What to write of the tree: `content`, `withDefaults`, `fields` and `depth` applied while it is
   * written, the tree only read (see {@link TreeView}); absent: the tree as it is.
   */
  readonly view?: TreeView;
}

/** How `ordered-by system` entries are ordered in output: as decoded (false) or sorted. */
export type SystemSort = boolean | 'ascending' | 'descending';

/** Largest piece a chunked encoder buffers before it yields. */
export const CHUNK_SIZE = 64 * 1024;

/**
 * `text` with its pieces joined. A writer appends small pieces to its buffer, which V8 keeps as a
 * tree of pieces until the string is read; a chunk is read once here as it is handed out, so the
 * pieces die young. Kept as pieces, every chunk of a document held until its end (a whole NETCONF
 * reply) survived the young-generation collections that ran meanwhile and was copied by each, which
 * cost more than writing the text.
 */
export function flatText(text: string): string {
  // Reading a character of a string made of pieces makes V8 join them in place; the result is used
  // (only an empty string has none), so an optimizing compiler keeps the read.
  return Number.isNaN(text.charCodeAt(0)) ? '' : text;
}

/** A group longer than this makes its holder worth writing as a generator (it may fill chunks). */
const LARGE_GROUP = 32;

/**
 * True when an inner node holds a large group of instances, so an encoder writes it as a generator that
 * can yield between them; a small node is written in one go (a generator per small list entry costs
 * more than the entry's text).
 */
export function isLarge(node: DataNode): boolean {
  if (node.children === undefined) return false;
  const pairs = pairsOf(node.children);
  for (let i = 1; i < pairs.length; i += 2) {
    const nodes = groupAt(pairs, i);
    const size = sizeOf(nodes);
    if (size > LARGE_GROUP) return true;
    if (size === 1 && isLarge(instanceOf(nodes, 0))) return true;
  }
  return false;
}

/**
 * The indentation strings of each depth, computed once per run, alone and with the punctuation
 * written beside them: a writer appends one string where it would join two or three (each join a
 * string of its own for the collector to trace).
 */
export class Indenter {
  private readonly unit: string;
  private readonly cache: string[] = [];
  private readonly commas: string[] = [];
  private readonly closings = new Map<string, string[]>();
  readonly pretty: boolean;

  constructor(indent: number | undefined) {
    this.pretty = indent !== undefined && indent > 0;
    this.unit = this.pretty ? ' '.repeat(indent!) : '';
  }

  /** Newline plus indentation for `depth`, or '' when compact. */
  at(depth: number): string {
    if (!this.pretty) return '';
    let s = this.cache[depth];
    if (s === undefined) this.cache[depth] = s = `\n${this.unit.repeat(depth)}`;
    return s;
  }

  /** `,` then {@link at}: what comes before an item that is not the first. */
  commaAt(depth: number): string {
    let s = this.commas[depth];
    if (s === undefined) this.commas[depth] = s = flatText(`,${this.at(depth)}`);
    return s;
  }

  /** {@link at} then `end` (a closing bracket or tag). */
  closing(depth: number, end: string): string {
    let byDepth = this.closings.get(end);
    if (byDepth === undefined) this.closings.set(end, (byDepth = []));
    let s = byDepth[depth];
    if (s === undefined) byDepth[depth] = s = flatText(`${this.at(depth)}${end}`);
    return s;
  }
}

/**
 * The child groups of `holder` as pairs (see `pairsOf`): as `place` (the holder's place in a view)
 * writes them, or the holder's own without a view.
 */
export function groupsOf(holder: ChildHolder, place: Place | undefined): ChildPairs {
  if (place !== undefined) return place.groups(holder);
  return holder.children === undefined ? NO_GROUPS : pairsOf(holder.children);
}

/**
 * Judges what `place` (a view's, if any) writes of `holder` ahead of its writing (`Place.groupsInSteps`),
 * yielding an empty chunk at each step: a big list the view's filter judges entry by entry, or whose
 * entries `content=nonconfig` looks below, is judged before its first entry is written (its name is
 * written only if an entry is kept), and an encoder's walk yields while it is, rather than hold the
 * event loop. Unless empty non-presence containers are written (`keepEmptyNp`), whether one is
 * depends on what the view writes below it: that is judged here too. A consumer of the chunked
 * encoders takes an empty chunk as no text, and a point where the event loop may get a turn. The
 * view keeps its answers (a place's groups of the holder last grouped there), so the writing that
 * follows reuses them.
 */
export function* viewedInSteps(
  holder: ChildHolder,
  place: Place | undefined,
  keepEmptyNp: boolean,
): Generator<string, void> {
  if (place === undefined) return;
  const steps = judgedAhead(holder, place, keepEmptyNp);
  for (let next = steps.next(); next.done !== true; next = steps.next()) yield '';
}

function* judgedAhead(holder: ChildHolder, place: Place, keepEmptyNp: boolean): Steps<void> {
  const pairs = yield* place.groupsInSteps(holder);
  if (keepEmptyNp) return;
  for (let i = 0; i < pairs.length; i += 2) {
    const schema = pairs[i] as SchemaNode;
    if (!isNpContainer(schema)) continue;
    const nodes = groupAt(pairs, i + 1);
    const below = place.child(schema);
    for (let k = 0; k < sizeOf(nodes); k++) yield* emptyNpSteps(instanceOf(nodes, k), below);
  }
}

function isNpContainer(schema: SchemaNode): boolean {
  return schema.kind === 'container' && schema.presence === undefined;
}

/** True for a non-presence container with nothing worth writing below it (at `place` in a view). */
export function isEmptyNp(node: DataNode, place: Place | undefined): boolean {
  return isNpContainer(node.schema) && finishSteps(emptyNpSteps(node, place));
}

/** {@link isEmptyNp} of a non-presence container, in the steps of the view's judgement below it. */
function* emptyNpSteps(node: DataNode, place: Place | undefined): Steps<boolean> {
  if (node.annotations !== undefined && node.annotations.length > 0) return false;
  if (isTruncatedByDepth(node)) return false;
  if (node.children === undefined) return true;
  if (place?.truncated === true) return false;
  const pairs = place === undefined ? groupsOf(node, place) : yield* place.groupsInSteps(node);
  for (let i = 1; i < pairs.length; i += 2) {
    const nodes = groupAt(pairs, i);
    const below = place?.child(pairs[i - 1] as SchemaNode);
    for (let k = 0; k < sizeOf(nodes); k++) {
      const child = instanceOf(nodes, k);
      if (!isNpContainer(child.schema) || !(yield* emptyNpSteps(child, below))) return false;
    }
  }
  return true;
}

function isNumeric(schema: SchemaNode): boolean {
  const t = schema.type === undefined ? undefined : resolveLeafref(schema.type);
  return t !== undefined && /^(u?int\d+|decimal64)$/.test(t.base);
}

function compareValues(a: string, b: string, numeric: boolean): number {
  if (numeric) {
    const d = Number(a) - Number(b);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Entries of a group in output order: as decoded, or sorted for system-ordered lists when asked. */
export function entriesInOrder(schema: SchemaNode, group: Group, sort: SystemSort): Group {
  if (sort === false || schema.orderedBy === 'user' || sizeOf(group) < 2) return group;
  const nodes = group as readonly DataNode[];
  const sign = sort === 'descending' ? -1 : 1;
  if (schema.kind === 'leaf-list') {
    const numeric = isNumeric(schema);
    return [...nodes].sort((a, b) => sign * compareValues(a.value ?? '', b.value ?? '', numeric));
  }
  if (schema.kind !== 'list' || schema.keyNodes.length === 0) return group;
  const keys = schema.keyNodes;
  const numeric = keys.map(isNumeric);
  return [...nodes].sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const c = compareValues(
        firstChild(a.children, k)?.value ?? '',
        firstChild(b.children, k)?.value ?? '',
        numeric[i]!,
      );
      if (c !== 0) return sign * c;
    }
    return 0;
  });
}

/** Whether a group is written: not empty, and not only empty non-presence containers unless asked for. */
function written(schema: SchemaNode, nodes: Group, keepEmptyNp: boolean, place: Place | undefined): boolean {
  if (sizeOf(nodes) === 0) return false;
  if (keepEmptyNp || schema.kind !== 'container') return true;
  const below = place?.child(schema);
  for (let k = 0; k < sizeOf(nodes); k++) if (!isEmptyNp(instanceOf(nodes, k), below)) return true;
  return false;
}

const NO_GROUPS: ChildPairs = [];

/**
 * Child groups to write, as pairs (see `pairsOf`): those of the view at `place` (if any), in schema
 * order, empty groups and (unless asked for) empty NP containers left out. In the usual case, where
 * nothing is to be sorted or left out, the pairs of the children map itself, so writing a node
 * allocates nothing for its children.
 */
export function groupsToWrite(
  holder: ChildHolder,
  schemaParent: SchemaNode | undefined,
  keepEmptyNp: boolean,
  place: Place | undefined,
): ChildPairs {
  const groups = groupsOf(holder, place);
  if (groups.length === 0) return NO_GROUPS;
  const pairs =
    schemaParent === undefined || pairsInSchemaOrder(groups, schemaParent)
      ? groups
      : pairsSorted(groups, schemaParent);
  for (let i = 0; i < pairs.length; i += 2) {
    if (written(pairs[i] as SchemaNode, groupAt(pairs, i + 1), keepEmptyNp, place)) continue;
    const kept: Slot[] = [];
    for (let j = 0; j < pairs.length; j += 2) {
      if (written(pairs[j] as SchemaNode, groupAt(pairs, j + 1), keepEmptyNp, place))
        kept.push(pairs[j]!, pairs[j + 1]!);
    }
    return kept;
  }
  return pairs;
}

/** True when {@link groupsToWrite} gives no group. */
export function nothingToWrite(holder: ChildHolder, keepEmptyNp: boolean, place: Place | undefined): boolean {
  const pairs = groupsOf(holder, place);
  for (let i = 0; i < pairs.length; i += 2) {
    if (written(pairs[i] as SchemaNode, groupAt(pairs, i + 1), keepEmptyNp, place)) return false;
  }
  return true;
}
