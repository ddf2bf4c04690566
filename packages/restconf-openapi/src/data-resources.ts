import type { JsonSchema } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import { bodyResponse, dataContent, refTo } from './bodies.js';
import { type BuildContext, errorResponses, type OpenApiObject, tagsOf, yangExtension } from './context.js';
import { MEDIA } from './media.js';
import { actionPathItem } from './operations.js';
import { queryParameters } from './parameters.js';

const DATA_KINDS = new Set(['container', 'list', 'leaf', 'leaf-list', 'anydata', 'anyxml']);

/** A resource path in the making: the URI template, its path parameters and their names. */
interface Place {
  readonly path: string;
  readonly parameters: readonly OpenApiObject[];
  readonly names: ReadonlySet<string>;
  /** Module of the data node the place is, for the names of its children (RFC 8040 3.5.3). */
  readonly module: string | undefined;
}

const ROOT: Place = { path: '/data', parameters: [], names: new Set(), module: undefined };

/** The data children of a node (choice and case transparent) and its actions. */
function childrenOf(node: SchemaNode): { data: SchemaNode[]; actions: SchemaNode[] } {
  const data: SchemaNode[] = [];
  const actions: SchemaNode[] = [];
  const visit = (list: readonly SchemaNode[]): void => {
    for (const c of list) {
      if (c.kind === 'choice' || c.kind === 'case') visit(c.children);
      else if (c.kind === 'action') actions.push(c);
      else if (DATA_KINDS.has(c.kind)) data.push(c);
    }
  };
  visit(node.children);
  return { data, actions };
}

/** The RFC 8040 3.5.3 segment of `node` below `place`: `module:name` where the module changes. */
function segment(place: Place, node: SchemaNode): string {
  return node.module === place.module ? node.name : `${node.module}:${node.name}`;
}

/** A path parameter name not yet used in the path: the key's name, else with the list's, else numbered. */
function parameterName(names: ReadonlySet<string>, list: SchemaNode, key: string): string {
  if (!names.has(key)) return key;
  const base = `${list.name}-${key}`;
  let name = base;
  for (let i = 2; names.has(name); i++) name = `${base}-${i}`;
  return name;
}

/** The place of a list or leaf-list entry: the keys (or the value) as `=a,b` path parameters. */
function entryPlace(ctx: BuildContext, at: Place, node: SchemaNode): Place {
  const names = new Set(at.names);
  const parameters = [...at.parameters];
  const values: string[] = [];
  const keyed = node.kind === 'leaf-list' ? [node] : node.keyNodes;
  for (const key of keyed) {
    const name = parameterName(names, node, key.name);
    names.add(name);
    values.push(`{${name}}`);
    const { xml: _xml, description: _d, ...schema } = ctx.bodies.member(key, 'data');
    parameters.push({
      name,
      in: 'path',
      required: true,
      description: `${node.kind === 'leaf-list' ? 'The value' : `Key ${key.name}`} of the ${node.name} entry, percent-encoded (RFC 8040 section 3.5.3).`,
      schema: node.kind === 'leaf-list' ? (schema.items as JsonSchema) : schema,
    });
  }
  return {
    path: `${at.path}/${segment(at, node)}=${values.join(',')}`,
    parameters,
    names,
    module: node.module,
  };
}

/**
 * Adds the data resources of `nodes` below `at` to the document, recursively: one path per
 * container, leaf, anydata and anyxml, two per list and leaf-list (all entries, and one entry
 * by its keys or value), with the methods each allows and their bodies.
 */
export function addDataResources(ctx: BuildContext, nodes: readonly SchemaNode[], at: Place = ROOT): void {
  for (const node of nodes) {
    if (!ctx.include(node)) continue;
    const here: Place = { ...at, path: `${at.path}/${segment(at, node)}`, module: node.module };
    const isEntry = node.kind === 'list' || node.kind === 'leaf-list';
    if (ctx.inScope(node)) {
      if (isEntry) ctx.paths[here.path] = allEntries(ctx, here, node, at.module ?? node.module);
      else ctx.paths[here.path] = resource(ctx, here, node, at.module ?? node.module);
    }
    if (node.kind === 'leaf' || node.kind === 'anydata' || node.kind === 'anyxml') continue;
    // A keyless list (state data) has no entry resources: its entries have no names.
    if (node.kind === 'list' && node.keyNodes.length === 0) continue;
    const entry = isEntry ? entryPlace(ctx, at, node) : here;
    if (isEntry && ctx.inScope(node)) {
      ctx.paths[entry.path] = resource(ctx, entry, node, at.module ?? node.module);
    }
    if (node.kind === 'leaf-list') continue;
    const { data, actions } = childrenOf(node);
    for (const action of actions) {
      if (!ctx.include(action) || !ctx.inScope(action)) continue;
      ctx.paths[`${entry.path}/${segment(entry, action)}`] = actionPathItem(ctx, action, entry.parameters);
    }
    addDataResources(ctx, data, entry);
  }
}

/** The path item of a whole list or leaf-list: GET answers every entry. */
function allEntries(ctx: BuildContext, at: Place, node: SchemaNode, parentModule: string): OpenApiObject {
  const item = pathItem(ctx, node, at, parentModule);
  const read = ctx.bodies.resource(node, 'data', false);
  item.get = {
    tags: tagsOf(node),
    summary: `Read every ${node.name} entry`,
    parameters: queryParameters('GET', 'data'),
    responses: {
      '200': readResponse(`Every ${node.name} entry`, read.json, read.xml),
      ...errorResponses(ctx, ['400', '404']),
    },
  };
  return item;
}

function pathItem(ctx: BuildContext, node: SchemaNode, at: Place, parentModule: string): OpenApiObject {
  return {
    ...(node.description === undefined ? {} : { description: node.description }),
    ...(at.parameters.length === 0 ? {} : { parameters: at.parameters }),
    'x-yang': yangExtension(ctx, node, parentModule),
  };
}

/** A GET reply in both encodings, with the datastore's entity tag (RFC 8040 3.4.1.2, 3.4.1.3). */
export function readResponse(description: string, json: JsonSchema, xml: JsonSchema): OpenApiObject {
  return {
    ...bodyResponse(description, json, xml),
    headers: { ETag: refTo('headers', 'ETag'), 'Last-Modified': refTo('headers', 'Last-Modified') },
  };
}

/**
 * The path item of a container, leaf, anydata, anyxml, or one list or leaf-list entry (`entry`
 * set): GET always; for configuration also PUT, PATCH (plain and YANG Patch), DELETE, and POST
 * to create a child. Key leaves cannot be changed on their own, so they are read only.
 */
function resource(ctx: BuildContext, at: Place, node: SchemaNode, parentModule: string): OpenApiObject {
  const item = pathItem(ctx, node, at, parentModule);
  const isEntry = node.kind === 'list' || node.kind === 'leaf-list';
  const read = ctx.bodies.resource(node, 'data', isEntry);
  item.get = {
    tags: tagsOf(node),
    summary: `Read ${node.name}${isEntry ? ' entry' : ''}`,
    parameters: queryParameters('GET', 'data'),
    responses: {
      '200': readResponse(`The ${node.name} ${isEntry ? 'entry' : node.kind}`, read.json, read.xml),
      ...errorResponses(ctx, ['400', '404']),
    },
  };
  if (!node.config || node.isKey) return item;
  const userOrdered = isEntry && node.orderedBy === 'user';
  const write = ctx.bodies.resource(node, 'config', isEntry);
  item.put = {
    tags: tagsOf(node),
    summary: `Create or replace ${node.name}${isEntry ? ' entry' : ''}`,
    parameters: queryParameters('PUT', 'data', userOrdered),
    requestBody: { required: true, content: dataContent(write.json, write.xml) },
    responses: {
      '201': { description: 'Created' },
      '204': { description: 'Replaced' },
      ...errorResponses(ctx, ['400', '403', '409', '412']),
    },
  };
  item.patch = {
    tags: tagsOf(node),
    summary: `Merge into ${node.name}${isEntry ? ' entry' : ''}, or edit below it with YANG Patch`,
    parameters: queryParameters('PATCH', 'data'),
    requestBody: {
      required: true,
      content: { ...dataContent(write.json, write.xml), ...patchContent() },
    },
    responses: {
      '200': {
        description: 'YANG Patch applied (RFC 8072 section 2.3)',
        content: patchStatusContent(),
      },
      '204': { description: 'Merged' },
      ...errorResponses(ctx, ['400', '403', '404', '409', '412']),
    },
  };
  item.delete = {
    tags: tagsOf(node),
    summary: `Delete ${node.name}${isEntry ? ' entry' : ''}`,
    parameters: queryParameters('DELETE', 'data'),
    responses: { '204': { description: 'Deleted' }, ...errorResponses(ctx, ['403', '404', '409', '412']) },
  };
  if (node.kind === 'container' || node.kind === 'list') {
    const post = createOperation(ctx, node, childrenOf(node).data);
    if (post !== undefined) item.post = post;
  }
  return item;
}

/** The YANG Patch request media types (RFC 8072 section 2.1). */
export function patchContent(): OpenApiObject {
  return {
    [MEDIA.patchJson]: { schema: refTo('schemas', 'ietf-yang-patch.yang-patch.body') },
    [MEDIA.patchXml]: { schema: refTo('schemas', 'ietf-yang-patch.yang-patch') },
  };
}

/** The YANG Patch status reply in both encodings (RFC 8072 section 2.3). */
export function patchStatusContent(): OpenApiObject {
  return dataContent(
    refTo('schemas', 'ietf-yang-patch.yang-patch-status.body'),
    refTo('schemas', 'ietf-yang-patch.yang-patch-status'),
  );
}

/**
 * POST on a container, list entry or the datastore creates one configuration child (RFC 8040
 * section 4.4.1): the body is one of them, a list entry as an array of one.
 */
export function createOperation(
  ctx: BuildContext,
  parent: SchemaNode | undefined,
  children: readonly SchemaNode[],
): OpenApiObject | undefined {
  const json: JsonSchema[] = [];
  const xml: JsonSchema[] = [];
  let userOrdered = false;
  for (const c of children) {
    if (!c.config || c.isKey || !ctx.include(c)) continue;
    const isEntry = c.kind === 'list' || c.kind === 'leaf-list';
    if (isEntry && c.orderedBy === 'user') userOrdered = true;
    const body = ctx.bodies.resource(c, 'config', isEntry);
    json.push(body.json);
    xml.push(body.xml);
  }
  if (json.length === 0) return undefined;
  const either = (list: JsonSchema[]): JsonSchema => (list.length === 1 ? list[0]! : { oneOf: list });
  return {
    tags: parent === undefined ? ['datastore'] : tagsOf(parent),
    summary: parent === undefined ? 'Create a top-level data node' : `Create a child of ${parent.name}`,
    parameters: queryParameters('POST', parent === undefined ? 'datastore' : 'data', userOrdered),
    requestBody: { required: true, content: dataContent(either(json), either(xml)) },
    responses: {
      '201': {
        description: 'Created; Location names the new resource',
        headers: { Location: refTo('headers', 'Location') },
      },
      ...errorResponses(ctx, ['400', '403', '404', '409', '412']),
    },
  };
}
