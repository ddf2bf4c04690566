import type { InstanceTree } from '@yangkit/yang-json-codec';
import { encodeOptions, type RequestContext } from './context.js';
import { RestconfError } from './errors.js';
import { METADATA_MODULE } from './metadata-module.js';

/** `2026-11-22T09:10:42Z`: yang:date-and-time of a whole-second time. */
function dateAndTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The spec's `with-etag` and `with-last-modified` on a read: each top node of the answer is
 * annotated with the entity tag and time its ETag and Last-Modified header fields carry
 * (`tagged`: the read sends them). True when annotations must be written. They are RFC 7952
 * metadata like any other: none with `--with-yang-metadata` off, none in JSON with
 * `--with-json-metadata` off (the header fields still carry both values).
 */
export function annotateValidators(ctx: RequestContext, tree: InstanceTree, tagged: boolean): boolean {
  const { withEtag, withLastModified } = ctx.query;
  if (withEtag !== true && withLastModified !== true) return false;
  const s = ctx.settings;
  if (!s.schema.annotations.has(`${METADATA_MODULE}:etag`)) {
    throw new RestconfError(
      'OPERATION_NOT_SUPPORTED',
      `with-etag and with-last-modified need the module ${METADATA_MODULE} in the server's schema`,
      { errorTag: 'operation-not-supported' },
    );
  }
  if (!tagged || !encodeOptions(s, ctx.encoding).metadata) return false;
  const added = [
    ...(withEtag ? [{ module: METADATA_MODULE, name: 'etag', value: s.clock.etag() }] : []),
    ...(withLastModified
      ? [{ module: METADATA_MODULE, name: 'last-modified', value: dateAndTime(s.clock.lastModified()) }]
      : []),
  ];
  // Each top node is replaced by a shallow copy: the tree may share its nodes with the datastore.
  for (const [schema, nodes] of tree.children) {
    tree.children.set(
      schema,
      nodes.map((n) => ({ ...n, annotations: [...(n.annotations ?? []), ...added] })),
    );
  }
  return true;
}
