import type { JsonSchema } from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { dataContent, wrapMember } from './bodies.js';
import { componentName, SchemaComponents } from './components.js';
import { type BuildContext, errorResponses, type OpenApiObject } from './context.js';
import {
  addDataResources,
  createOperation,
  patchContent,
  patchStatusContent,
  readResponse,
} from './data-resources.js';
import { OpenApiError } from './errors.js';
import { MEDIA } from './media.js';
import { notificationSchema, rpcPathItem } from './operations.js';
import { queryParameterComponents, queryParameters } from './parameters.js';
import { BodySchemas, GroupingUses } from './schemas.js';

/** Options of {@link toOpenApi}. */
export interface OpenApiOptions {
  /**
   * Document only what these modules define: their top-level data nodes, rpcs and notifications,
   * and what they add to other modules' trees (with the path down to it). Default: every
   * implemented module, and the datastore resource `{root}/data` too.
   */
  readonly modules?: readonly string[];
  /** The RESTCONF root (default `/restconf`): the server URL unless `serverUrl` is given. */
  readonly root?: string;
  /** `servers[0].url`: where the paths start, e.g. `https://device.example.com/restconf`. */
  readonly serverUrl?: string;
  /** `info.title` (default: `RESTCONF API of <modules>`). */
  readonly title?: string;
  /** `info.version` (default: the revisions of the modules). */
  readonly version?: string;
  /** JSON member names without module names, as a server with `--simple-json-names` writes them. */
  readonly simpleNames?: boolean;
  /** The server's authentication, as OpenAPI security schemes (default: none). */
  readonly security?: { readonly basic?: boolean; readonly mutualTls?: boolean };
  /**
   * Whether a data node, rpc, action or notification is listed (with what is below it); for
   * example what NACM lets a user read or execute. Default: all.
   */
  readonly include?: (node: SchemaNode) => boolean;
  /** Document the event stream resource `{root}/streams/{stream}` (default true). */
  readonly eventStreams?: boolean;
}

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, OpenApiObject>>;
  readonly components: OpenApiObject;
  readonly security?: readonly Record<string, readonly string[]>[];
  readonly [extension: `x-${string}`]: unknown;
}

const RESTCONF_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf';

/** The one data node of a `rc:yang-data` template, or a MISSING_MODULE error naming the module. */
function yangDataNode(tree: SchemaTree, name: string): SchemaNode {
  const node = tree.yangData.get(name)?.children[0];
  if (node === undefined) {
    const module = name.slice(0, name.indexOf(':'));
    throw new OpenApiError('MISSING_MODULE', `the schema needs ${module} for the ${name} template`);
  }
  return node;
}

/**
 * An OpenAPI 3.1 document of the RESTCONF API (RFC 8040, RFC 8072) a server of `tree` offers:
 * a path per data resource with its keys as path parameters (RFC 8040 section 3.5.3) and the
 * methods it allows (state data: GET only), the query parameters of each method, request and
 * reply bodies as JSON Schema in JSON and XML, rpcs and actions with their input and output,
 * the `ietf-restconf:errors` body, and the security schemes. Objects are components, shared
 * where equal; the members of a grouping used at more than one place are a component joined
 * with `allOf`. `x-yang` on each path item tells what the node is (kind, tree diagram flags,
 * type). The schema must hold ietf-restconf and ietf-yang-patch.
 */
export function toOpenApi(tree: SchemaTree, options: OpenApiOptions = {}): OpenApiDocument {
  for (const m of options.modules ?? []) {
    if (tree.moduleByName(m)?.implemented !== true)
      throw new OpenApiError('UNKNOWN_MODULE', `the schema does not implement module ${m}`);
  }
  const groupings = new GroupingUses();
  build(tree, options, groupings);
  groupings.done();
  return build(tree, options, groupings);
}

function build(tree: SchemaTree, options: OpenApiOptions, groupings: GroupingUses): OpenApiDocument {
  const modules = options.modules;
  const include = options.include ?? (() => true);
  const owned = (n: SchemaNode): boolean => modules === undefined || modules.includes(n.module);
  const inScope = (n: SchemaNode): boolean => {
    for (let p: SchemaNode | undefined = n; p !== undefined; p = p.parent) if (owned(p)) return true;
    return false;
  };
  const components = new SchemaComponents();
  const simpleNames = options.simpleNames ?? false;
  const ctx: BuildContext = {
    tree,
    bodies: new BodySchemas(tree, components, groupings, simpleNames),
    components,
    paths: {},
    include,
    inScope,
    simpleNames,
    commonErrors: options.security?.basic || options.security?.mutualTls ? ['401'] : [],
  };
  const errors = ctx.bodies.member(yangDataNode(tree, 'ietf-restconf:yang-errors'), 'data');
  // The YANG Patch bodies (RFC 8072 section 2): the templates' containers are components of
  // their own name (`ietf-yang-patch.yang-patch`), beside the JSON bodies (`....body`).
  for (const template of ['ietf-yang-patch:yang-patch', 'ietf-yang-patch:yang-patch-status']) {
    const ref = ctx.bodies.member(yangDataNode(tree, template), 'data');
    components.schemas[`${componentName(template)}.body`] = wrapMember(template, ref);
  }

  const tops = tree.children.filter((n) => n.kind !== 'rpc' && n.kind !== 'notification');
  if (modules === undefined) addDatastore(ctx, tops);
  addDataResources(
    ctx,
    tops.flatMap((n) => (n.kind === 'choice' || n.kind === 'case' ? dataOf(n) : [n])),
  );
  for (const rpc of tree.rpcs()) {
    if (owned(rpc) && include(rpc))
      ctx.paths[`/operations/${rpc.module}:${rpc.name}`] = rpcPathItem(ctx, rpc);
  }
  const notifications = tree
    .notifications()
    .filter((n) => owned(n) && include(n))
    .map((n) => ({
      module: n.module,
      name: n.name,
      schema: components.ref(`notification.${componentName(n.dataPath)}`, notificationSchema(ctx, n)),
    }));
  if (options.eventStreams !== false) addEventStream(ctx);

  const names = modules ?? tree.modules.filter((m) => m.implemented).map((m) => m.name);
  const security = securitySchemes(options);
  return {
    openapi: '3.1.0',
    info: {
      title:
        options.title ??
        `RESTCONF API of ${names.length > 3 ? `${names.length} YANG modules` : names.join(', ')}`,
      version: options.version ?? versionOf(tree, names),
      description:
        'RESTCONF (RFC 8040) resources generated from the YANG modules. Keys in paths are percent-encoded; list entries are written as arrays of one.',
    },
    servers: [{ url: options.serverUrl ?? options.root ?? '/restconf' }],
    paths: ctx.paths,
    components: {
      schemas: components.schemas,
      parameters: queryParameterComponents(),
      responses: {
        errors: {
          description: 'The error, as an ietf-restconf:errors body (RFC 8040 section 7.1)',
          content: dataContent(wrapMember('ietf-restconf:errors', errors), errors),
        },
      },
      headers: {
        ETag: { description: 'Entity-tag of the datastore (RFC 8040 3.4.1.2)', schema: { type: 'string' } },
        'Last-Modified': {
          description: 'Time of the last change (RFC 8040 3.4.1.3)',
          schema: { type: 'string' },
        },
        Location: { description: 'URL of the new resource', schema: { type: 'string', format: 'uri' } },
      },
      ...(security === undefined ? {} : { securitySchemes: security }),
    },
    ...(security === undefined ? {} : { security: Object.keys(security).map((k) => ({ [k]: [] })) }),
    'x-yang-notifications': notifications,
  };
}

function dataOf(n: SchemaNode): SchemaNode[] {
  return n.children.flatMap((c) => (c.kind === 'choice' || c.kind === 'case' ? dataOf(c) : [c]));
}

/** `info.version`: the modules' revisions, as the YANG library would name them. */
function versionOf(tree: SchemaTree, names: readonly string[]): string {
  const revisions = names.map((n) => tree.moduleByName(n)?.revision ?? '').filter((r) => r !== '');
  if (revisions.length === 0) return '1';
  return names.length === 1 ? revisions[0]! : `${revisions.sort().at(-1)} (newest of ${names.length})`;
}

function securitySchemes(options: OpenApiOptions): Record<string, OpenApiObject> | undefined {
  const out: Record<string, OpenApiObject> = {};
  if (options.security?.basic) out.basic = { type: 'http', scheme: 'basic' };
  if (options.security?.mutualTls)
    out.mutualTLS = {
      type: 'mutualTLS',
      description: 'A client certificate mapped to a user (RFC 8040 section 2.5)',
    };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The datastore resource `{root}/data` (RFC 8040 section 3.4.1). */
function addDatastore(ctx: BuildContext, tops: readonly SchemaNode[]): void {
  const body = (v: 'data' | 'config'): { json: JsonSchema; xml: JsonSchema } => {
    const object = ctx.bodies.datastore(undefined, v);
    const xml = { ...object, xml: { name: 'data', namespace: RESTCONF_NS } };
    return { json: wrapMember('ietf-restconf:data', object), xml };
  };
  const read = body('data');
  const write = body('config');
  const tag = ['datastore'];
  const post = createOperation(
    ctx,
    undefined,
    tops.flatMap((n) => (n.kind === 'choice' ? dataOf(n) : [n])),
  );
  ctx.paths['/data'] = {
    description: 'The datastore resource: every top-level data node (RFC 8040 section 3.4.1).',
    get: {
      tags: tag,
      summary: 'Read the datastore',
      parameters: queryParameters('GET', 'datastore'),
      responses: {
        '200': readResponse('The datastore', read.json, read.xml),
        ...errorResponses(ctx, ['400']),
      },
    },
    put: {
      tags: tag,
      summary: 'Replace the whole configuration',
      parameters: queryParameters('PUT', 'datastore'),
      requestBody: { required: true, content: dataContent(write.json, write.xml) },
      responses: { '204': { description: 'Replaced' }, ...errorResponses(ctx, ['400', '403', '409', '412']) },
    },
    patch: {
      tags: tag,
      summary: 'Merge into the configuration, or edit it with YANG Patch',
      parameters: queryParameters('PATCH', 'datastore'),
      requestBody: { required: true, content: { ...dataContent(write.json, write.xml), ...patchContent() } },
      responses: {
        '200': { description: 'YANG Patch applied (RFC 8072 section 2.3)', content: patchStatusContent() },
        '204': { description: 'Merged' },
        ...errorResponses(ctx, ['400', '403', '409', '412']),
      },
    },
    ...(post === undefined ? {} : { post }),
  };
  ctx.paths['/operations'] = {
    get: {
      tags: tag,
      summary: 'List the operations (RFC 8040 section 3.3.2)',
      responses: {
        '200': {
          description: 'One empty member per operation',
          content: dataContent(
            wrapMember('ietf-restconf:operations', {
              type: 'object',
              additionalProperties: { const: [null] },
            }),
            { type: 'object', xml: { name: 'operations', namespace: RESTCONF_NS } },
          ),
        },
      },
    },
  };
}

/** The event stream resource (RFC 8040 section 6.3): where restconf-state/streams locates it. */
function addEventStream(ctx: BuildContext): void {
  ctx.paths['/streams/{stream}'] = {
    get: {
      tags: ['streams'],
      summary: 'Receive the notifications of an event stream as Server-Sent Events',
      description:
        'The location of each stream and encoding is listed in ietf-restconf-monitoring:restconf-state/streams. Each event carries one notification: in JSON an ietf-restconf:notification object (see x-yang-notifications), in XML a <notification> element.',
      parameters: [
        {
          name: 'stream',
          in: 'path',
          required: true,
          description: 'The encoding and name, e.g. `json-NETCONF`',
          schema: { type: 'string' },
        },
        ...queryParameters('GET', 'stream'),
      ],
      responses: {
        '200': {
          description: 'The event stream',
          content: { [MEDIA.eventStream]: { schema: { type: 'string' } } },
        },
        ...errorResponses(ctx, ['400', '404']),
      },
    },
  };
}
