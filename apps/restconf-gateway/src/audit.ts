import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuditListener, type AuditRecord, datastoreOf } from '@yangkit/restconf-server';
import type { Logger } from 'pino';

/** Methods that change nothing (RFC 9110 section 9.2.1): not audited. */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The longest user name written for a failed login (users of a users file have at most 64 characters). */
const MAX_USER_LENGTH = 64;
/** A Message-ID the response may echo: one header line of reasonable length. */
const MESSAGE_ID = /^[^\r\n]{1,1024}$/;

/** One audit line, as logged (pino leaves out undefined fields). */
export interface AuditLine {
  readonly audit: true;
  /** The request's Message-ID, else the id generated for it and echoed in the response. */
  readonly msgId: string;
  readonly user: string | undefined;
  readonly remoteAddress: string | undefined;
  readonly method: string;
  /** The request target: path and query. */
  readonly target: string;
  readonly datastore: string | undefined;
  readonly status: number;
  readonly outcome: 'success' | 'failure';
  /** The YANG Patch `patch-id` (RFC 8072). */
  readonly patchId: string | undefined;
  /** The error-tag of a refused request (RFC 8040 section 7). */
  readonly errorTag: string | undefined;
  readonly errorMessage: string | undefined;
  readonly durationMs: number;
}

/** The gateway's audit trail: one line per request with an unsafe method, accepted or refused. */
export interface GatewayAudit {
  /**
   * Gives every request a Message-ID: its own header, else a generated one set on the response,
   * so that the client, the log lines and the audit line share it.
   */
  begin(req: IncomingMessage, res: ServerResponse): void;
  /** The handler's `audit` option: the line of a request the handler answered. */
  readonly listener: AuditListener;
  /** The line of an unsafe request the gateway refused before the handler (401, 429, 503). */
  refused(req: IncomingMessage, res: ServerResponse, errorTag: string, errorMessage: string): void;
  /**
   * The line of a request refused for a wrong user name or password, whatever its method: a
   * failed login is a security event even on a GET. `user` is the name the credentials gave.
   */
  loginFailed(req: IncomingMessage, res: ServerResponse, user: string): void;
}

/** Writes the audit lines to `log` at level info with `audit: true`. */
export function createAudit(log: Logger, root: string): GatewayAudit {
  // Read at the start: an HTTP/2 request's socket is gone once its stream closed.
  const started = new WeakMap<
    IncomingMessage,
    { id: string; at: bigint; remoteAddress: string | undefined }
  >();
  const write = (
    req: IncomingMessage,
    record: Omit<AuditLine, 'audit' | 'msgId' | 'remoteAddress' | 'durationMs'>,
  ): void => {
    const start = started.get(req);
    const line: AuditLine = {
      audit: true,
      msgId: start?.id ?? '',
      remoteAddress: start?.remoteAddress,
      durationMs:
        start === undefined ? 0 : Math.round(Number(process.hrtime.bigint() - start.at) / 1e3) / 1e3,
      ...record,
    };
    log.info(line, `${line.method} ${line.target} ${line.status}`);
  };
  const refusal = (
    req: IncomingMessage,
    res: ServerResponse,
    user: string | undefined,
    errorTag: string,
    errorMessage: string,
  ): void => {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    res.once('close', () =>
      write(req, {
        user,
        method,
        target,
        datastore: datastoreOf(target.split('?')[0]!, root),
        status: res.statusCode,
        outcome: 'failure',
        patchId: undefined,
        errorTag,
        errorMessage,
      }),
    );
  };
  return {
    begin(req, res) {
      const own = req.headers['message-id'];
      let id: string;
      if (typeof own === 'string' && MESSAGE_ID.test(own)) id = own;
      else {
        id = randomUUID();
        res.setHeader('Message-ID', id);
      }
      started.set(req, { id, at: process.hrtime.bigint(), remoteAddress: req.socket.remoteAddress });
    },
    listener: (record: AuditRecord, req) =>
      write(req, {
        user: record.user,
        method: record.method,
        target: record.target,
        datastore: record.datastore,
        status: record.status,
        outcome: record.outcome,
        patchId: record.patchId,
        errorTag: record.errorTag,
        errorMessage: record.errorMessage,
      }),
    refused(req, res, errorTag, errorMessage) {
      if (!SAFE.has((req.method ?? 'GET').toUpperCase()))
        refusal(req, res, undefined, errorTag, errorMessage);
    },
    loginFailed(req, res, user) {
      refusal(req, res, user.slice(0, MAX_USER_LENGTH), 'access-denied', 'invalid user name or password');
    },
  };
}
