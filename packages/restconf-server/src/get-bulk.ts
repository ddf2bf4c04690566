import { parseApiPath, resolveApiPath } from '@yangkit/restconf-uri';
import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import { type AnyElement, type DataNode, encodeJson, encodeXml } from '@yangkit/yang-json-codec';
import { pathSchemaOf } from '@yangkit/yang-patch';
import type { SchemaNode } from '@yangkit/yang-schema';
import { decodeInput } from './body.js';
import { encodeOptions, type RequestContext } from './context.js';
import type { Body } from './edit.js';
import { RestconfError } from './errors.js';
import { ATTRS_NS, GET_BULK_MODULE, GET_BULK_NS } from './get-bulk-module.js';
import { findInstances, resourceTree, schemaOf, toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';

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
 * The spec's `get-bulk` operation, answered by the handler: reads the list named by
 * `list-target`, skips to the entry after `last-keys` and answers up to `count` entries in
 * `bulk/data` with the keys of the last one in `bulk/last-keys`. Each call reads the list from
 * the backend (NETCONF has no paging), so its cost grows with the list, not with the page.
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
  const tree = await ctx.settings.backend.read({ target, user: ctx.user });
  const entries = findInstances(tree, target);
  let start = 0;
  if (after !== undefined) {
    const at = entries.findIndex((e) => list.keyNodes.every((k) => keyText(e, k) === after.get(k.name)));
    if (at === -1) throw invalid('last-keys names no entry of the list');
    start = at + 1;
  }
  const page = entries.slice(start, start + count);
  const last = page[page.length - 1];
  const opts = encodeOptions(ctx.settings, ctx.encoding);
  const json = ctx.encoding === 'json';
  const prefix = ctx.settings.simpleJsonNames ? '' : `${GET_BULK_MODULE}:`;
  let data = json ? '{}' : '';
  if (page.length > 0) {
    const bulk = resourceTree(tree, page);
    data = json ? encodeJson(bulk, { ...opts, indent: -1 }) : encodeXml(bulk, { ...opts, indent: -1 });
  }
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
  const out = json
    ? `{"${prefix}output":{"bulk":{"data":${data}${keys}}}}`
    : `<output xmlns="${GET_BULK_NS}"><bulk><data xmlns:ya="${ATTRS_NS}" ya:datapath="${escapeXmlAttribute(parentPath(targetText))}">${data}</data>${keys}</bulk></output>`;
  ctx.out.text(200, dataMediaType(ctx.encoding), out);
}
