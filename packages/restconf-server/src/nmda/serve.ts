import type { IncomingMessage } from 'node:http';
import type { QueryParameters, RequestTarget, ResolvedApiPath } from '@yangkit/restconf-uri';
import { readRequestBody } from '../body.js';
import type { BodySlot } from '../body-admission.js';
import type { RequestContext, Settings } from '../context.js';
import { type Body, editData } from '../edit.js';
import { RestconfError } from '../errors.js';
import { schemaOf } from '../instances.js';
import { MEDIA, negotiateEncoding } from '../media.js';
import { invokeAction, isAction } from '../operation.js';
import { readData } from '../read.js';
import type { Responder } from '../response.js';
import { requesterOf } from '../subscriptions/index.js';
import { checkWriteAccess } from '../write-access.js';
import { datastoreOf, followsRunning, type NmdaDatastore, nmdaAvailable } from './datastores.js';

/** A `{root}/ds/...` request target. */
export type NmdaTarget = Extract<RequestTarget, { kind: 'nmda-datastore' | 'nmda-data' }>;

const READ = ['GET', 'HEAD', 'OPTIONS'];

/**
 * The methods of an RFC 8527 resource (the Allow header of OPTIONS and 405): reads everywhere,
 * edits only on the datastores `<edit-data>` can change, and actions only below operational
 * (RFC 8527 section 3.1).
 */
export function nmdaAllowedMethods(ds: NmdaDatastore, resolved: ResolvedApiPath | undefined): string[] {
  if (resolved !== undefined && isAction(resolved)) {
    return ds.name === 'operational' ? ['POST', 'OPTIONS'] : ['OPTIONS'];
  }
  if (!ds.writable) return READ;
  if (resolved === undefined) return [...READ, 'POST', 'PUT', 'PATCH'];
  const last = resolved.steps[resolved.steps.length - 1];
  if (last !== undefined && !schemaOf(last).config) return READ;
  return [...READ, 'POST', 'PUT', 'PATCH', 'DELETE'];
}

/**
 * Serves `{root}/ds/<datastore>[/<api-path>]` (RFC 8527): 404 unless `withNmda` is set and the
 * backend implements NMDA; reads map to `<get-data>`, edits to `<edit-data>`, actions below
 * operational to `<action>`.
 */
export async function serveNmda(
  s: Settings,
  req: IncomingMessage,
  out: Responder,
  slot: BodySlot,
  method: string,
  target: NmdaTarget,
  resolved: ResolvedApiPath | undefined,
  query: QueryParameters,
): Promise<void> {
  if (!nmdaAvailable(s)) {
    throw new RestconfError('NOT_FOUND', 'no NMDA datastore resources are offered', {
      errorTag: 'invalid-value',
    });
  }
  const ds = datastoreOf(s, target.datastore);
  const allow = nmdaAllowedMethods(ds, resolved);
  if (!allow.includes(method)) {
    throw new RestconfError('METHOD_NOT_ALLOWED', `${method} is not allowed on this resource`, {
      errorTag: 'operation-not-supported',
      allow,
    });
  }
  if (method === 'OPTIONS') {
    out.header('Allow', allow.join(', '));
    if (allow.includes('PATCH')) out.header('Accept-Patch', `${MEDIA.dataXml},${MEDIA.dataJson}`);
    out.empty(200);
    return;
  }
  const negotiation = { defaultEncoding: s.defaultEncoding, strictHeaders: s.strictHeaders };
  const action = resolved !== undefined && isAction(resolved);
  let body: Body | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    if (!action) checkWriteAccess(s, requesterOf(req), resolved, ds.name);
    // Plain bodies only: YANG Patch on /ds is not offered (415).
    body = await readRequestBody(s, req, slot, { patch: false, required: !action });
  }
  const encoding = negotiateEncoding(req.headers.accept, negotiation, action ? body?.encoding : undefined);
  const ctx: RequestContext = { settings: s, method, target, query, out, encoding, user: requesterOf(req) };
  if (action) return invokeAction(ctx, resolved, body);
  if (method === 'GET' || method === 'HEAD') {
    if (followsRunning(ds)) {
      out.header('ETag', s.clock.etag());
      out.header('Last-Modified', s.clock.lastModified().toUTCString());
    }
    return readData(ctx, resolved, ds);
  }
  return editData(ctx, { ds }, resolved, body);
}
