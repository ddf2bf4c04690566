import { escapeXmlAttribute } from '@yangkit/xml';
import { RESTCONF_NS } from '@yangkit/yang-json-codec';
import type { RequestContext } from './context.js';
import { RestconfError } from './errors.js';
import { accepts, MEDIA } from './media.js';
import { servedSchema } from './schema-locations.js';

function indentOf(ctx: RequestContext): number | undefined {
  return ctx.settings.messageIndent > 0 ? ctx.settings.messageIndent : undefined;
}

/**
 * `/.well-known/host-meta` (RFC 8040 section 3.1, RFC 6415): an XRD document whose `restconf`
 * link names the root; `/.well-known/host-meta.json` or an Accept of JSON gives the JRD form.
 */
export function hostMeta(ctx: RequestContext, format: 'xrd' | 'json'): void {
  const root = ctx.settings.root;
  const accept = ctx.out.req.headers.accept;
  const json =
    format === 'json' || (accept !== undefined && !accepts(accept, MEDIA.xrd) && accepts(accept, MEDIA.json));
  if (json) {
    ctx.out.text(
      200,
      MEDIA.json,
      JSON.stringify({ links: [{ rel: 'restconf', href: root }] }, null, indentOf(ctx)),
    );
    return;
  }
  if (!accepts(accept, MEDIA.xrd)) {
    throw new RestconfError('NOT_ACCEPTABLE', 'host-meta is served as application/xrd+xml or JSON', {
      errorTag: 'invalid-value',
    });
  }
  ctx.out.text(
    200,
    MEDIA.xrd,
    `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0"><Link rel="restconf" href="${escapeXmlAttribute(root)}"/></XRD>\n`,
  );
}

/** The yang-library revision the server implements (RFC 8040 section 3.3.3), from the schema. */
export function yangLibraryVersion(ctx: RequestContext): string {
  return ctx.settings.schema.moduleByName('ietf-yang-library')?.revision ?? '2019-01-04';
}

/** The `{+restconf}` API resource (RFC 8040 section 3.3): data, operations, yang-library-version. */
export function apiRoot(ctx: RequestContext): void {
  const version = yangLibraryVersion(ctx);
  const depth = ctx.query.depth;
  const shallow = depth === 1;
  if (ctx.encoding === 'json') {
    const inner = shallow ? {} : { data: {}, operations: {}, 'yang-library-version': version };
    ctx.out.text(
      200,
      MEDIA.dataJson,
      JSON.stringify({ 'ietf-restconf:restconf': inner }, null, indentOf(ctx)),
    );
    return;
  }
  const inner = shallow ? '' : `<data/><operations/><yang-library-version>${version}</yang-library-version>`;
  ctx.out.text(200, MEDIA.dataXml, `<restconf xmlns="${RESTCONF_NS}">${inner}</restconf>`);
}

/** `{+restconf}/yang-library-version` (RFC 8040 section 3.3.3). */
export function libraryVersion(ctx: RequestContext): void {
  const version = yangLibraryVersion(ctx);
  if (ctx.encoding === 'json') {
    ctx.out.text(
      200,
      MEDIA.dataJson,
      JSON.stringify({ 'ietf-restconf:yang-library-version': version }, null, indentOf(ctx)),
    );
  } else {
    ctx.out.text(
      200,
      MEDIA.dataXml,
      `<yang-library-version xmlns="${RESTCONF_NS}">${version}</yang-library-version>`,
    );
  }
}

/**
 * `{+restconf}/operations` (RFC 8040 section 3.3.2): one empty member per rpc of the schema,
 * `"module:name": [null]` in JSON, an empty element in the rpc's namespace in XML.
 */
export function operationsList(ctx: RequestContext): void {
  const rpcs = ctx.settings.schema.rpcs();
  if (ctx.encoding === 'json') {
    const members: Record<string, [null]> = {};
    for (const r of rpcs) members[`${r.module}:${r.name}`] = [null];
    ctx.out.text(
      200,
      MEDIA.dataJson,
      JSON.stringify({ 'ietf-restconf:operations': members }, null, indentOf(ctx)),
    );
    return;
  }
  const items = rpcs.map((r) => `<${r.name} xmlns="${r.namespace}"/>`).join('');
  ctx.out.text(200, MEDIA.dataXml, `<operations xmlns="${RESTCONF_NS}">${items}</operations>`);
}

/**
 * Schema retrieval (RFC 8040 section 3.7): `{+restconf}/yang/<module>[@<revision>]` answers the
 * module or submodule text as application/yang; the revision, when given, must be one loaded.
 * The YANG library names these URLs (see `addSchemaLocations`). `{+restconf}/yang` alone names
 * no schema: 404.
 */
export function schemaText(
  ctx: RequestContext,
  module: string | undefined,
  revision: string | undefined,
): void {
  const found = module === undefined ? undefined : servedSchema(ctx.settings.schema, module, revision);
  if (found === undefined) {
    const what =
      module === undefined
        ? 'a schema is retrieved as /yang/<module>[@<revision>], the URL its YANG library entry names'
        : `no module ${module}${revision === undefined ? '' : `@${revision}`}`;
    throw new RestconfError('NOT_FOUND', what, { errorTag: 'invalid-value' });
  }
  if (!accepts(ctx.out.req.headers.accept, MEDIA.yang)) {
    throw new RestconfError('NOT_ACCEPTABLE', 'schemas are served as application/yang', {
      errorTag: 'invalid-value',
    });
  }
  ctx.out.text(200, MEDIA.yang, found.source);
}
