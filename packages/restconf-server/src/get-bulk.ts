import { parseApiPath, resolveApiPath } from '@yangkit/restconf-uri';
import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import {
  type AnyElement,
  type DataNode,
  encodeJsonChunks,
  encodeXmlChunks,
  entriesNamedApart,
  findEntry,
  findPath,
  finishInSlices,
  type InstanceTree,
  ITEMS_PER_STEP,
  judgedByKeySteps,
  type NodeFilter,
  type PathStep,
  positionsSteps,
  type SharedRead,
  type Steps,
  snapshotAfterSteps,
} from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaNode } from '@yangkit/yang-schema';
import { decodeInput } from './body.js';
import { encodeOptions, type RequestContext } from './context.js';
import type { Body } from './edit.js';
import { RestconfError } from './errors.js';
import { ATTRS_NS, GET_BULK_MODULE, GET_BULK_NS } from './get-bulk-module.js';
import { resourceTree, schemaOf, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { stateAlong, writtenFilter } from './read.js';

/** The api-path of the node holding the list: the list-target without its last segment. */
function parentPath(listTarget: string): string {
  const trimmed = listTarget.replace(/\/+$/, '');
  const cut = trimmed.lastIndexOf('/');
  return cut <= 0 ? '/' : trimmed.slice(0, cut);
}

function invalid(message: string): RestconfError {
  return new RestconfError('REQUEST_INVALID', message, {
    errorType: 'application',
    errorTag: 'invalid-value',
  });
}

async function inputOf(
  ctx: RequestContext,
  op: SchemaNode,
  body: Body | undefined,
): Promise<DataNode | undefined> {
  const input = await decodeInput(ctx, body, op);
  return input === undefined ? undefined : [...input.children.values()].flat()[0];
}

function member(node: DataNode | undefined, name: string): DataNode | undefined {
  for (const [schema, nodes] of node?.children ?? []) if (schema.name === name) return nodes[0];
  return undefined;
}

function keyText(entry: DataNode, key: SchemaNode): string {
  return entry.children?.get(key)?.[0]?.value ?? '';
}

/** The key values of `last-keys` by key name (elements named like the list's key leafs). */
function lastKeys(any: readonly AnyElement[] | undefined, list: SchemaNode): Map<string, string> | undefined {
  if (any === undefined || any.length === 0) return undefined;
  const keys = new Map<string, string>();
  for (const el of any) {
    const key = list.keyNodes.find((k) => k.name === el.name);
    if (key === undefined) throw invalid(`last-keys: ${el.name} is not a key of ${list.name}`);
    keys.set(el.name, el.text ?? '');
  }
  return keys;
}

/**
 * Which entries of a list the user may read (RFC 8341 section 3.4.5): every entry gets `rest`
 * but those `apart`, which get the opposite; or, when the read's filter cannot say which entries
 * it tells apart, each as `each` judges it.
 */
type Readable =
  | { readonly rest: boolean; readonly apart: ReadonlySet<DataNode> }
  | { readonly each: (entry: DataNode) => boolean };

const NOT_OWN: ReadonlySet<DataNode> = new Set();
const ALL: Readable = { rest: true, apart: NOT_OWN };
const NONE: Readable = { rest: false, apart: NOT_OWN };

/**
 * Which entries of `group` a shared read's `filter` keeps. As the encoders' view
 * does, a list of configuration entries (unique keys) is judged by the entries the filter names,
 * found by key, and one other entry for the rest, so a page never walks the list.
 */
function* readableIn(filter: NodeFilter | undefined, group: readonly DataNode[]): Steps<Readable> {
  const first = group[0];
  if (filter === undefined || first === undefined) return ALL;
  const parent = first.parent;
  const state = parent === undefined ? filter.root : stateAlong(filter, NOT_OWN, parent);
  if (state === undefined) return NONE;
  if (filter.keepsAllBelow(state)) return ALL;
  const named = entriesNamedApart(filter, state, first.schema);
  if (named === undefined) return { each: (entry) => filter.child(state, entry) !== undefined };
  const { rest, apart } = yield* judgedByKeySteps(filter, state, group, named);
  return { rest: rest !== undefined, apart };
}

function isReadable(readable: Readable, entry: DataNode): boolean {
  return 'each' in readable ? readable.each(entry) : readable.apart.has(entry) !== readable.rest;
}

/**
 * The position after the entry `after` names in `group` (the entries of `list`): found by key in
 * the group's index (in a shared read the datastore's own array and index, kept from one call to
 * the next), then its position by the array's own search. An entry the user may not read is
 * answered as absent (RFC 8341 section 3.4.5).
 */
function positionAfter(
  list: SchemaNode,
  group: readonly DataNode[],
  after: Map<string, string>,
  readable: Readable,
): number {
  const values = list.keyNodes.map((k) => after.get(k.name));
  const entry = values.every((v) => v !== undefined) ? findEntry(group, values.join('\u0000')) : undefined;
  const at = entry === undefined || !isReadable(readable, entry) ? -1 : group.indexOf(entry);
  if (at === -1) throw invalid('last-keys names no entry of the list');
  return at + 1;
}

/**
 * The page of up to `count` readable entries of `group` from `start`, when the filter named the
 * entries apart: entry by entry from `start` when the rest are readable (at most `count` plus
 * those apart), else the readable ones apart, by position.
 */
function* pageOf(
  group: readonly DataNode[],
  start: number,
  count: number,
  { rest, apart }: { readonly rest: boolean; readonly apart: ReadonlySet<DataNode> },
): Steps<DataNode[]> {
  if (!rest) {
    const positions = yield* positionsSteps(group, apart);
    return positions
      .filter((at) => at >= start)
      .slice(0, count)
      .map((at) => group[at]!);
  }
  const page: DataNode[] = [];
  for (let i = start; i < group.length && page.length < count; i++)
    if (!apart.has(group[i]!)) page.push(group[i]!);
  return page;
}

/**
 * The page of up to `count` entries of `group` (the entries of `list`) that `filter` keeps, after
 * the entry `after` names, in steps.
 */
function* pageSteps(
  filter: NodeFilter | undefined,
  list: SchemaNode,
  group: readonly DataNode[],
  after: Map<string, string> | undefined,
  count: number,
): Steps<DataNode[]> {
  const readable = yield* readableIn(filter, group);
  const start = after === undefined ? 0 : positionAfter(list, group, after, readable);
  // Each entry is judged, and the unreadable ones skipped do not count.
  if ('each' in readable) return yield* readableFrom(group, start, count, readable.each);
  return yield* pageOf(group, start, count, readable);
}

/** Up to `count` entries of `group` from `start` that `readable` keeps, a few looked at a step. */
function* readableFrom(
  group: readonly DataNode[],
  start: number,
  count: number,
  readable: (entry: DataNode) => boolean,
): Steps<DataNode[]> {
  const page: DataNode[] = [];
  for (let i = start; i < group.length && page.length < count; i++) {
    if (readable(group[i]!)) page.push(group[i]!);
    if ((i - start) % ITEMS_PER_STEP === ITEMS_PER_STEP - 1) yield;
  }
  return page;
}

/**
 * `head`, the chunks of `body`, then `tail`, the ends joined to the first and last chunks that hold
 * text; an empty chunk (the encoder's step) passed on as it comes.
 */
function* framed(head: string, body: Iterable<string>, tail: string): Generator<string> {
  let pending = head;
  let first = true;
  for (const chunk of body) {
    if (chunk === '') {
      yield chunk;
      continue;
    }
    if (!first) yield pending;
    pending = first ? head + chunk : chunk;
    first = false;
  }
  yield pending + tail;
}

/** The list read: the tree, and the shared read it is (to release once written), if it is one. */
interface BulkRead {
  readonly tree: InstanceTree;
  readonly shared?: SharedRead;
}

/** The list read as one user: shared with the datastore when the backend can, else a copy. */
async function readList(ctx: RequestContext, target: readonly PathStep[]): Promise<BulkRead> {
  const backend = ctx.settings.backend;
  const request = { target, user: ctx.user };
  if (backend.readShared === undefined) return { tree: await backend.read(request) };
  const shared = await backend.readShared(request);
  return { tree: shared.tree, shared };
}

/**
 * The spec's `get-bulk` operation, answered by the handler: reads the list named by
 * `list-target`, skips to the entry after `last-keys` and answers up to `count` entries in
 * `bulk/data` with the keys of the last one in `bulk/last-keys`. With a backend that shares its
 * nodes (`readShared`) nothing is copied: the entry after `last-keys` is found by key and the page
 * is written from the datastore's own entries, so a call costs its page (and the entries the read's
 * filter names by key; a filter that cannot name them has each entry skipped judged, in slices). A
 * backend that copies (NETCONF has no paging) gives the whole list on every call.
 */
export async function getBulk(ctx: RequestContext, op: SchemaNode, body: Body | undefined): Promise<void> {
  const input = await inputOf(ctx, op, body);
  const targetText = member(input, 'list-target')?.value;
  if (targetText === undefined) throw invalid('get-bulk needs list-target');
  const resolved = resolveApiPath(parseApiPath(targetText), pathSchemaOf(ctx.settings.schema));
  const lastStep = resolved.steps[resolved.steps.length - 1]!;
  const list = schemaOf(lastStep);
  if (list.kind !== 'list' || lastStep.keys !== undefined)
    throw invalid('list-target must name a list without keys');
  const count = Number(member(input, 'count')?.value ?? '100');
  const after = lastKeys(member(input, 'last-keys')?.any, list);

  const target = toPathSteps(resolved);
  const { tree, shared } = await readList(ctx, target);
  try {
    // In a shared read, the datastore's own array of the entries, with its index of keys.
    const group = findPath(tree, target.slice(0, -1))?.children?.get(list) ?? [];
    const filter = shared?.filter;
    const answer = (page: DataNode[]) => answerChunks(ctx, targetText, list, tree, page, filter);
    // In slices: the answer keeps one snapshot of the moment of the read.
    const scan = pageSteps(filter, list, group, after, count);
    const chunks =
      shared === undefined
        ? answer(await finishInSlices(scan))
        : await snapshotAfterSteps(shared, scan, answer);
    await ctx.out.stream(200, dataMediaType(ctx.encoding), chunks);
  } finally {
    shared?.release();
  }
}

/** The answer of a page, in chunks: `bulk/data` written from the entries through the read's filter, then `bulk/last-keys`. */
function answerChunks(
  ctx: RequestContext,
  targetText: string,
  list: SchemaNode,
  tree: InstanceTree,
  page: DataNode[],
  filter: NodeFilter | undefined,
): Iterable<string> {
  const last = page[page.length - 1];
  const json = ctx.encoding === 'json';
  const prefix = ctx.settings.simpleJsonNames ? '' : `${GET_BULK_MODULE}:`;
  let keys = '';
  if (last !== undefined) {
    if (json) {
      const pairs = list.keyNodes.map(
        (k) => `${JSON.stringify(`${list.module}:${k.name}`)}:${JSON.stringify(keyText(last, k))}`,
      );
      keys = `,"last-keys":{${pairs.join(',')}}`;
    } else {
      keys = `<last-keys>${list.keyNodes
        .map((k) => `<${k.name} xmlns="${list.namespace}">${escapeXmlText(keyText(last, k))}</${k.name}>`)
        .join('')}</last-keys>`;
    }
  }
  const head = json
    ? `{"${prefix}output":{"bulk":{"data":`
    : `<output xmlns="${GET_BULK_NS}"><bulk><data xmlns:ya="${ATTRS_NS}" ya:datapath="${escapeXmlAttribute(parentPath(targetText))}">`;
  const tail = json ? `${keys}}}}` : `</data>${keys}</bulk></output>`;
  if (page.length === 0) return [`${head}${json ? '{}' : ''}${tail}`];
  const opts = {
    ...encodeOptions(ctx.settings, ctx.encoding),
    indent: -1,
    ...(filter === undefined ? {} : { view: { filter: writtenFilter(filter, NOT_OWN) } }),
  };
  const bulk = resourceTree(tree, page);
  return framed(head, json ? encodeJsonChunks(bulk, opts) : encodeXmlChunks(bulk, opts), tail);
}
