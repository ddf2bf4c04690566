import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RestconfError } from './errors.js';
import { requesterOf } from './subscriptions/requester.js';

/**
 * What the handler reports about one request that may change state: every request whose method
 * is not safe (RFC 9110 section 9.2.1: anything but GET, HEAD, OPTIONS), once its response is
 * done. Operations are reported whether or not they change state, since the handler cannot tell.
 */
export interface AuditRecord {
  /** The request method, upper case. */
  readonly method: string;
  /** The request target as received: path and query. */
  readonly target: string;
  /**
   * The datastore the request edits, as an RFC 8342 identity: `ietf-datastores:running` for the
   * unified datastore `{root}/data` (RFC 8040 section 1.4), the named one for `{root}/ds/<name>`
   * (RFC 8527), undefined for operations and other resources.
   */
  readonly datastore: string | undefined;
  /** The status sent (0 when the client left before a status line). */
  readonly status: number;
  /** `success` for a complete response below 400, else `failure`. */
  readonly outcome: 'success' | 'failure';
  /** The `patch-id` of a YANG Patch request (RFC 8072 section 2.1). */
  readonly patchId: string | undefined;
  /** The first error's `error-tag` of a refused request (RFC 8040 section 7). */
  readonly errorTag: string | undefined;
  /** The first error's message of a refused request. */
  readonly errorMessage: string | undefined;
  /** The request's `Message-ID` header (the request identifier the response echoes), when it has one. */
  readonly messageId: string | undefined;
  /** The user the request was authenticated as (`req.remoteUser`, `req.user`, or HTTP Basic). */
  readonly user: string | undefined;
  /** Milliseconds from the handler receiving the request to the response being done. */
  readonly durationMs: number;
}

/** Receives one {@link AuditRecord} per unsafe request; `req` gives access to anything else. */
export type AuditListener = (record: AuditRecord, req: IncomingMessage) => void;

/** What the edit path tells about a request before its response ends. */
interface AuditNote {
  patchId?: string;
  errorTag?: string;
  errorMessage?: string;
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const notes = new WeakMap<IncomingMessage, AuditNote>();

/** The datastore of an unsafe request's path below `root`, as an RFC 8342 identity. */
export function datastoreOf(path: string, root: string): string | undefined {
  if (path === `${root}/data` || path.startsWith(`${root}/data/`)) return 'ietf-datastores:running';
  if (!path.startsWith(`${root}/ds/`)) return undefined;
  const segment = path.slice(root.length + 4).split('/')[0]!;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Starts auditing one request: for unsafe methods, reports an {@link AuditRecord} to `listener`
 * when the response closes. Safe methods and a missing listener cost nothing.
 */
export function auditRequest(
  listener: AuditListener | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  root: string,
): void {
  const method = (req.method ?? 'GET').toUpperCase();
  if (listener === undefined || SAFE.has(method)) return;
  const startedAt = process.hrtime.bigint();
  const note: AuditNote = {};
  notes.set(req, note);
  res.once('close', () => {
    const status = res.headersSent ? res.statusCode : 0;
    const id = req.headers['message-id'];
    const record: AuditRecord = {
      method,
      target: url,
      datastore: datastoreOf(url.split('?')[0]!, root),
      status,
      outcome: status > 0 && status < 400 && res.writableFinished ? 'success' : 'failure',
      patchId: note.patchId,
      errorTag: note.errorTag,
      errorMessage: note.errorMessage,
      messageId: typeof id === 'string' ? id : undefined,
      user: requesterOf(req),
      durationMs: Number(process.hrtime.bigint() - startedAt) / 1e6,
    };
    try {
      listener(record, req);
    } catch {
      // A failing listener must not take the server down; the response is already sent.
    }
  });
}

/** Records the `patch-id` of the YANG Patch a request carries. */
export function notePatchId(req: IncomingMessage, patchId: string): void {
  const note = notes.get(req);
  if (note !== undefined) note.patchId = patchId;
}

/** Records why a request was refused (the first error of its `ietf-restconf:errors`). */
export function noteRefusal(req: IncomingMessage, error: RestconfError): void {
  const note = notes.get(req);
  if (note === undefined || note.errorTag !== undefined) return;
  note.errorTag = error.errorTag;
  note.errorMessage = error.message;
}
