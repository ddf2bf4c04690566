import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestTarget, ResolvedApiPath } from '@yangkit/restconf-uri';
import { apiRoot, hostMeta, libraryVersion, operationsList, schemaText } from './api.js';
import { auditRequest, noteRefusal } from './audit.js';
import { readRequestBody } from './body.js';
import { BODY_ADMISSION_DEFAULTS, BodyAdmission, type BodySlot } from './body-admission.js';
import { memoryChangeClock } from './change-clock.js';
import { checkRead, checkWrite } from './conditional.js';
import type { RequestContext, Settings } from './context.js';
import { type Body, editData } from './edit.js';
import { errorEncoding, toRestconfErrors } from './error-body.js';
import { RestconfError } from './errors.js';
import { IdleCollection } from './idle-collection.js';
import { schemaOf } from './instances.js';
import { MEDIA, negotiateEncoding } from './media.js';
import { serveNmda } from './nmda/serve.js';
import { invokeAction, invokeOperation, isAction } from './operation.js';
import type { RestconfHandlerOptions } from './options.js';
import { yangPatch } from './patch.js';
import { readData } from './read.js';
import { parseTarget } from './request-cache.js';
import { httpDateFormatter, Responder } from './response.js';
import { Metrics, RequestStats, serverStatusJson } from './server-status.js';
import { createEventStreams, streamSettings } from './streams/index.js';
import {
  clientOf,
  recordBasicUser,
  requesterOf,
  serveSubscription,
  subscriptionSettings,
  subscriptionStats,
} from './subscriptions/index.js';
import { checkKeyLengths, MAX_BODY_NODES, MAX_KEY_LENGTH, MAX_STRING_LENGTH } from './value-limits.js';
import { applyWildcardKeys } from './wildcard.js';
import { checkWriteAccess } from './write-access.js';

/** A node:http request listener that is also connect/express-style middleware. */
export interface RestconfHandler {
  /** Answers RESTCONF requests; other paths go to `next` when given, else 404. */
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** Resolves when the backend's capabilities are known (requests wait for it anyway). */
  readonly ready: Promise<void>;
  /** The Prometheus registry, when metrics are on. */
  readonly metricsRegistry: Metrics['registry'] | undefined;
  /** Closes the backend's sessions. */
  close(): Promise<void>;
}

const READ = ['GET', 'HEAD', 'OPTIONS'];
const ACCEPT_PATCH = `${MEDIA.patchXml},${MEDIA.patchJson},${MEDIA.dataXml},${MEDIA.dataJson}`;

function settingsOf(o: RestconfHandlerOptions, stats: RequestStats): Settings {
  const events = createEventStreams(streamSettings(o.streams, o.sseKeepalive));
  const root = (o.root ?? '/restconf').replace(/\/+$/, '');
  if (o.schema !== undefined && o.schema !== o.backend.schema) {
    throw new RestconfError('INVALID_OPTION', 'schema must be the schema of the backend', {
      errorTag: 'invalid-value',
    });
  }
  const idle =
    o.collectGarbage === undefined
      ? undefined
      : new IdleCollection(
          {
            collect: o.collectGarbage,
            ...(o.collectYoungGeneration === undefined ? {} : { collectYoung: o.collectYoungGeneration }),
            // Event streams stay open as long as their clients: they do not put the collection off.
            busy: () => stats.answering(),
          },
          o.logger,
        );
  return {
    schema: o.backend.schema,
    backend: o.backend,
    root: root === '' ? '/restconf' : root,
    serverUrl: o.serverUrl ?? 'http://localhost',
    defaultEncoding: o.defaultEncoding ?? 'json',
    strictHeaders: o.strictHeaders ?? false,
    simpleJsonNames: o.simpleJsonNames ?? false,
    messageIndent: o.messageIndent ?? -1,
    defaultStyle: o.defaultStyle ?? 'explicit',
    returnEmptyNpContainers: o.returnEmptyNpContainers ?? false,
    systemSorted: o.systemSorted ?? false,
    systemSortType: o.systemSortType ?? 'ascending',
    withJsonMetadata: o.withJsonMetadata ?? true,
    withYangMetadata: o.withYangMetadata ?? true,
    wildcardKeys: o.wildcardKeys ?? false,
    withRestconf: o.withRestconf ?? true,
    withNmda: o.withNmda ?? false,
    capabilities: o.capabilities ?? [],
    logger: o.logger,
    maxBodyBytes: o.maxBodyBytes ?? 16 * 1024 * 1024,
    maxKeyLength: o.maxKeyLength ?? MAX_KEY_LENGTH,
    maxStringLength: o.maxStringLength ?? MAX_STRING_LENGTH,
    maxBodyNodes: o.maxBodyNodes ?? MAX_BODY_NODES,
    bodies: new BodyAdmission(
      o.maxBodiesDecoding ?? BODY_ADMISSION_DEFAULTS.maxDecoding,
      o.maxBodiesWaiting ?? BODY_ADMISSION_DEFAULTS.maxWaiting,
      o.maxHeapPercent ?? BODY_ADMISSION_DEFAULTS.maxHeapPercent,
      idle,
    ),
    idle,
    clock: o.clock ?? memoryChangeClock(),
    events,
    subscriptions: subscriptionSettings(o.subscriptions),
  };
}

/** The methods a resource allows (RFC 8040 section 4: the Allow header of OPTIONS and 405). */
function allowedMethods(target: RequestTarget, resolved: ResolvedApiPath | undefined): string[] {
  switch (target.kind) {
    case 'datastore':
      return [...READ, 'POST', 'PUT', 'PATCH'];
    case 'data': {
      if (resolved !== undefined && isAction(resolved)) return ['POST', 'OPTIONS'];
      const last = resolved?.steps[resolved.steps.length - 1];
      if (last !== undefined && !schemaOf(last).config) return READ;
      return [...READ, 'POST', 'PUT', 'PATCH', 'DELETE'];
    }
    case 'operation':
      return ['POST', 'OPTIONS'];
    default:
      return READ;
  }
}

/**
 * Creates the RESTCONF request handler (RFC 8040) over a NETCONF {@link Backend}: usable as a
 * `node:http` request listener and as connect/express middleware.
 */
export function createRestconfHandler(options: RestconfHandlerOptions): RestconfHandler {
  const stats = new RequestStats();
  const s = settingsOf(options, stats);
  const metrics =
    options.metrics === true || (typeof options.metrics === 'object' && options.metrics !== null)
      ? new Metrics(
          options.metrics === true ? undefined : options.metrics,
          s.backend,
          stats,
          () => subscriptionStats(s),
          () => s.events.stats(),
          () => s.bodies.stats(),
        )
      : undefined;
  const ready = s.backend.start().then(() => {
    // Entity tags and Last-Modified follow running (RFC 8040 section 3.4.1).
    s.backend.onChange((datastore) => {
      if (datastore === 'running') s.clock.changed();
    });
    s.events.discover(s.backend);
    s.idle?.started();
  });
  ready.catch((error: unknown) => s.logger?.error('NETCONF backend did not start', error));

  const handler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const path = url.split('?')[0]!;
    const ours =
      (s.withRestconf &&
        (path === s.root || path.startsWith(`${s.root}/`) || path.startsWith('/.well-known/host-meta'))) ||
      (options.serverStatus === true && path === '/server-status') ||
      (metrics !== undefined && path === '/metrics');
    if (!ours && next !== undefined) {
      next();
      return;
    }
    if (options.trustBasicUser === true) recordBasicUser(req);
    const out = new Responder(req, res);
    auditRequest(options.audit, req, res, url, s.root);
    const startedAt = process.hrtime.bigint();
    stats.inProgress.add(out);
    res.on('close', () => {
      stats.inProgress.delete(out);
      const status = res.statusCode;
      stats.record(status);
      s.idle?.answered();
      metrics?.observe(req.method ?? 'GET', status, Number(process.hrtime.bigint() - startedAt) / 1e9);
    });
    const run = async (): Promise<void> => {
      if (!ours) {
        out.header('Vary', 'Accept');
        throw new RestconfError('NOT_FOUND', 'no resource at this path', {
          errorTag: 'invalid-value',
        });
      }
      if (path === '/server-status' && options.serverStatus === true) {
        out.text(
          200,
          MEDIA.json,
          serverStatusJson(stats, s.backend, subscriptionStats(s), s.events.stats(), s.bodies.stats()),
        );
        return;
      }
      if (path === '/metrics' && metrics !== undefined) {
        out.text(200, metrics.registry.contentType, await metrics.registry.metrics());
        return;
      }
      // The body's media type follows Accept (RFC 8040 section 5.2), errors included: a cache must
      // not answer an XML request with a stored JSON body (RFC 9110 section 12.5.5). Bodies are
      // never content-coded, so Accept-Encoding does not vary them.
      out.header('Vary', 'Accept');
      await ready;
      // The body's slot is held until the request is done with its tree, not until the client
      // goes: a client that leaves after sending its body does not free the memory it costs.
      const slot = s.bodies.slotFor(out, clientOf(req));
      try {
        await serve(s, req, out, url, slot);
      } finally {
        slot.free();
      }
    };
    run().catch((error: unknown) => {
      const errors = toRestconfErrors(error, s.schema);
      noteRefusal(req, errors[0]!);
      if (errors[0]!.status >= 500) s.logger?.error(`${req.method} ${url}: ${errors[0]!.message}`, error);
      try {
        const negotiation = { defaultEncoding: s.defaultEncoding, strictHeaders: s.strictHeaders };
        out.errors(errors, errorEncoding(req.headers, negotiation), s.messageIndent);
      } catch {
        res.destroy();
      }
    });
  };
  return Object.assign(handler, {
    ready,
    metricsRegistry: metrics?.registry,
    close: () => {
      s.events.close();
      s.bodies.close();
      return s.backend.close();
    },
  });
}

async function serve(
  s: Settings,
  req: IncomingMessage,
  out: Responder,
  url: string,
  slot: BodySlot,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const negotiation = { defaultEncoding: s.defaultEncoding, strictHeaders: s.strictHeaders };
  const parsed = parseTarget(s, method === 'OPTIONS' ? 'GET' : method, url);
  const { target, query } = parsed;
  const user = requesterOf(req);
  checkKeyLengths(s, parsed.resolved);
  let resolved = parsed.resolved;
  if (resolved !== undefined && s.wildcardKeys && 'path' in target)
    resolved = applyWildcardKeys(resolved, target.path, method);
  if (target.kind === 'nmda-datastore' || target.kind === 'nmda-data') {
    return serveNmda(s, req, out, slot, method, target, parsed.resolved, query);
  }
  if (target.kind === 'subscription') return serveSubscription(s, out, method, target.id);
  const allow = allowedMethods(target, resolved);
  if (!allow.includes(method)) {
    throw new RestconfError('METHOD_NOT_ALLOWED', `${method} is not allowed on this resource`, {
      errorTag: 'operation-not-supported',
      allow,
    });
  }
  const editable = (target.kind === 'datastore' || target.kind === 'data') && allow.includes('PATCH');
  if (method === 'OPTIONS') {
    out.header('Allow', allow.join(', '));
    if (editable) out.header('Accept-Patch', ACCEPT_PATCH);
    out.empty(200);
    return;
  }

  const invokes = target.kind === 'operation' || (resolved !== undefined && isAction(resolved));
  let body: Body | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    if (!invokes) checkWriteAccess(s, user, resolved);
    const read = await readRequestBody(s, req, slot, { patch: method === 'PATCH', required: !invokes });
    if (read?.patch === true) {
      const encoding = negotiateEncoding(req.headers.accept, negotiation, read.encoding);
      const ctx: RequestContext = { settings: s, method, target, query, out, encoding, user };
      out.onSend = () => stamp(s, out);
      await yangPatch(ctx, resolved, read, () => checkWrite(req, s.clock));
      return;
    }
    body = read;
  }
  // Operation output is JSON only when its input was (the spec's negotiation rule 3).
  // host-meta and schemas have media types of their own; they check Accept themselves.
  const ownMedia =
    target.kind === 'well-known-host-meta' || target.kind === 'schema' || target.kind === 'stream';
  const encoding = ownMedia
    ? s.defaultEncoding
    : negotiateEncoding(req.headers.accept, negotiation, invokes ? body?.encoding : undefined);
  const ctx: RequestContext = { settings: s, method, target, query, out, encoding, user };

  switch (target.kind) {
    case 'well-known-host-meta':
      return hostMeta(ctx, target.format);
    case 'api-root':
    case 'version':
      return apiRoot(ctx);
    case 'yang-library-version':
      return libraryVersion(ctx);
    case 'operations':
      return operationsList(ctx);
    case 'schema':
      return schemaText(ctx, target.module, target.revision);
    case 'operation':
      return invokeOperation(ctx, target, body);
    case 'stream':
      return s.events.serve(s, out, target, query);
    default:
      break;
  }
  if (resolved !== undefined && isAction(resolved)) return invokeAction(ctx, resolved, body);
  if (method === 'GET' || method === 'HEAD') {
    stamp(s, out);
    if (checkRead(req, s.clock) === 'not-modified') {
      out.empty(304);
      return;
    }
    return readData(ctx, resolved);
  }
  out.onSend = () => stamp(s, out);
  return editData(ctx, { check: () => checkWrite(req, s.clock) }, resolved, body);
}

const lastModifiedDate = httpDateFormatter();

/** ETag and Last-Modified of the datastore (RFC 8040 sections 3.4.1.2, 3.4.1.3; also used for data resources). */
function stamp(s: Settings, out: Responder): void {
  out.header('ETag', s.clock.etag());
  out.header('Last-Modified', lastModifiedDate(s.clock.lastModified().getTime()));
}
