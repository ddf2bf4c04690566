import type { IncomingMessage } from 'node:http';
import type { ChangeClock } from './change-clock.js';
import { RestconfError } from './errors.js';

function tags(header: string): string[] {
  return header.split(',').map((t) => t.trim().replace(/^W\//, ''));
}

function date(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const t = Date.parse(header);
  return Number.isNaN(t) ? undefined : t;
}

function failed(message: string): RestconfError {
  return new RestconfError('PRECONDITION_FAILED', message, { errorTag: 'operation-failed' });
}

/**
 * RFC 9110 section 13 preconditions for a read (GET/HEAD): `not-modified` when If-None-Match
 * matches the entity tag or, without If-None-Match, If-Modified-Since is not older than
 * Last-Modified (304); If-Match / If-Unmodified-Since failures throw 412.
 */
export function checkRead(req: IncomingMessage, clock: ChangeClock): 'not-modified' | 'ok' {
  checkWriteHeaders(req, clock, false);
  const etag = clock.etag();
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return inm.trim() === '*' || tags(inm).includes(etag) ? 'not-modified' : 'ok';
  const ims = date(req.headers['if-modified-since']);
  // Compared at the one-second resolution of HTTP dates (RFC 7232 section 3.3): a date equal to
  // Last-Modified is not modified, unless that date was also sent for an earlier state.
  if (ims !== undefined && clock.distinct() && clock.lastModified().getTime() <= ims) return 'not-modified';
  return 'ok';
}

function checkWriteHeaders(req: IncomingMessage, clock: ChangeClock, write: boolean): void {
  const etag = clock.etag();
  const im = req.headers['if-match'];
  if (im !== undefined && im.trim() !== '*' && !tags(im).includes(etag)) {
    throw failed('If-Match does not match the current entity tag');
  }
  const ius = im === undefined ? date(req.headers['if-unmodified-since']) : undefined;
  if (ius !== undefined) {
    // A change in the same second as the date may have come after it: refused until that second is over.
    const modified = clock.lastModified().getTime();
    if (modified > ius || (modified === ius && !clock.settled()))
      throw failed('the resource was modified after If-Unmodified-Since');
  }
  if (write) {
    const inm = req.headers['if-none-match'];
    if (inm !== undefined && (inm.trim() === '*' || tags(inm).includes(etag))) {
      throw failed('If-None-Match matches the current entity tag');
    }
  }
}

/**
 * RFC 9110 section 13 preconditions for an edit (RFC 8040 section 3.4.1.2, 3.4.1.3): If-Match,
 * If-None-Match and If-Unmodified-Since; any failure is 412 and nothing is written.
 */
export function checkWrite(req: IncomingMessage, clock: ChangeClock): void {
  checkWriteHeaders(req, clock, true);
}
