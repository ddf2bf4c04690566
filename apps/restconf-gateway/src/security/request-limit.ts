import type { IncomingMessage, ServerResponse } from 'node:http';
import { basicCredentials } from '../basic-auth.js';
import { answerRefusal, type RefusalEncoding } from './refusal.js';

/** Requests one client may have in progress, by default: room for a busy tool, not a flood. */
export const MAX_REQUESTS_PER_CLIENT = 32;

/**
 * Who a request counts against: the user it was authenticated as (`req.remoteUser`: a verified
 * client certificate or Basic credentials; authentication runs before the limit), else the user
 * of its Basic credentials when it carries any, else the peer address. The Basic user is
 * unchecked only on a server without authentication, where a client that lies about its user
 * spends that user's share, never another's.
 */
export function clientOf(req: IncomingMessage): string {
  const authenticated = (req as IncomingMessage & { remoteUser?: unknown }).remoteUser;
  if (typeof authenticated === 'string' && authenticated !== '') return `user:${authenticated}`;
  const basic = basicCredentials(req)?.user;
  if (basic !== undefined && basic !== '') return `user:${basic}`;
  return `addr:${req.socket.remoteAddress ?? ''}`;
}

/**
 * Bounds the requests (event streams included, as they stay open) that one client has in
 * progress. The returned check answers 429 with an `ietf-restconf:errors` body and returns false
 * when the client already has `max` requests open; otherwise it counts the request until its
 * response finishes or its connection closes, and returns true.
 */
export function requestLimit(
  max: number,
  encoding: RefusalEncoding = {},
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const open = new Map<string, number>();
  return (req, res) => {
    const client = clientOf(req);
    const n = open.get(client) ?? 0;
    if (n >= max) {
      answerRefusal(
        req,
        res,
        {
          errorTag: 'resource-denied',
          reason: 'too-many-requests',
          message: 'too many requests in progress for this client',
          headers: { 'Retry-After': '1' },
        },
        encoding,
      );
      return false;
    }
    open.set(client, n + 1);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    };
    res.once('finish', release);
    res.once('close', release);
    return true;
  };
}
