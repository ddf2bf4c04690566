import type { IncomingMessage, ServerResponse } from 'node:http';
import { clientOf } from '@yangkit/restconf-server';
import { answerRefusal, type RefusalEncoding } from './refusal.js';

/** Requests one client may have in progress, by default: room for a busy tool, not a flood. */
export const MAX_REQUESTS_PER_CLIENT = 32;

/**
 * Bounds the requests (event streams included, as they stay open) that one client (its user, or
 * without credentials its address: `clientOf`) has in progress. The returned check answers 429
 * with an `ietf-restconf:errors` body and returns false when the client already has `max`
 * requests open; otherwise it counts the request until its response finishes or its connection
 * closes, and returns true.
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
