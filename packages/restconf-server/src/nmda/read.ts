import type { NetconfSession } from '@yangkit/netconf-client';
import { type ResolvedApiPath, toSubtreeFilter } from '@yangkit/restconf-uri';
import type { RequestContext } from '../context.js';
import { readData } from '../read.js';
import type { NmdaDatastore } from './datastores.js';

const NC_NS = 'urn:ietf:params:xml:ns:netconf:base:1.0';

/**
 * Reads one NMDA datastore with `<get-data>` (RFC 8526 section 3.1.1): the subtree filter of the
 * target and `<with-origin/>` when the query asks for it (RFC 8527 section 3.2.2). Defaults come
 * back as the backend keeps them and the with-defaults mode is applied afterwards, as on `/data`.
 * The reply's content is put in a NETCONF `<data>` element for the codec.
 */
export async function getDataXml(
  ctx: RequestContext,
  session: NetconfSession,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath | undefined,
): Promise<string> {
  const inner = await session.getData({
    datastore: ds.name,
    ...(resolved === undefined ? {} : { filter: { subtree: toSubtreeFilter(resolved) } }),
    ...(ctx.query.withOrigin ? { withOrigin: true } : {}),
  });
  return `<data xmlns="${NC_NS}">${inner}</data>`;
}

/**
 * GET and HEAD on `{root}/ds/<datastore>[/<api-path>]` (RFC 8527 section 3.1): the RFC 8040
 * read of the datastore or data resource with depth, fields and with-defaults, from the named
 * datastore. With `with-origin` the `ietf-origin:origin` annotations are written in both
 * encodings, even when JSON metadata is otherwise off.
 */
export function readNmda(
  ctx: RequestContext,
  ds: NmdaDatastore,
  resolved: ResolvedApiPath | undefined,
): Promise<void> {
  const read: RequestContext = ctx.query.withOrigin
    ? { ...ctx, settings: { ...ctx.settings, withJsonMetadata: true } }
    : ctx;
  return readData(read, resolved, (session) => getDataXml(ctx, session, ds, resolved));
}
