import { RestconfError } from './errors.js';

/** The two encodings of YANG data (RFC 8040 section 5.2). */
export type Encoding = 'json' | 'xml';

/** RFC 8040 section 11.3 media types. */
export const MEDIA = {
  dataJson: 'application/yang-data+json',
  dataXml: 'application/yang-data+xml',
  patchJson: 'application/yang-patch+json',
  patchXml: 'application/yang-patch+xml',
  yang: 'application/yang',
  eventStream: 'text/event-stream',
  xrd: 'application/xrd+xml',
  json: 'application/json',
} as const;

/** Media types other than RFC 8040's accepted when strict headers are off (the spec's `--restconf-strict-headers=false`). */
// Maps, not object literals: a header naming `__proto__` or `constructor` must find nothing.
const LENIENT: ReadonlyMap<string, Encoding> = new Map([
  ['application/json', 'json'],
  ['text/json', 'json'],
  ['text/xml', 'xml'],
  ['application/xml', 'xml'],
]);

const STRICT: ReadonlyMap<string, Encoding> = new Map([
  [MEDIA.dataJson, 'json'],
  [MEDIA.dataXml, 'xml'],
]);

/** Largest Accept header examined; anything longer is refused rather than parsed. */
const MAX_HEADER = 4096;

interface Range {
  readonly type: string;
  readonly q: number;
}

/** Accept (RFC 9110 section 12.5.1) as media ranges sorted by q, highest first, q=0 dropped. */
export function parseAccept(header: string): Range[] {
  if (header.length > MAX_HEADER) {
    throw new RestconfError('NOT_ACCEPTABLE', 'Accept header too long', {
      errorTag: 'invalid-value',
    });
  }
  const ranges: Range[] = [];
  for (const part of header.split(',')) {
    const [type, ...params] = part.split(';');
    const t = (type ?? '').trim().toLowerCase();
    if (t === '') continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v?.trim());
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      }
    }
    if (q > 0) ranges.push({ type: t, q });
  }
  // Array.prototype.sort is stable, so equal q keeps the client's order.
  return ranges.sort((a, b) => b.q - a.q);
}

/** Settings that decide negotiation. */
export interface NegotiationOptions {
  readonly defaultEncoding: Encoding;
  readonly strictHeaders: boolean;
}

function lookup(type: string, strict: boolean): Encoding | undefined {
  return STRICT.get(type) ?? (strict ? undefined : LENIENT.get(type));
}

/**
 * The response encoding for a YANG data resource (RFC 8040 section 5.2): the first acceptable
 * yang-data type of Accept; `preferred` (the request body's encoding, for operations) or the
 * default encoding when Accept is absent or a wildcard.
 *
 * @throws {RestconfError} `NOT_ACCEPTABLE` (406) when Accept names only types that cannot be produced
 */
export function negotiateEncoding(
  accept: string | undefined,
  options: NegotiationOptions,
  preferred?: Encoding,
): Encoding {
  const fallback = preferred ?? options.defaultEncoding;
  if (accept === undefined || accept.trim() === '') return fallback;
  for (const range of parseAccept(accept)) {
    if (range.type === '*/*' || range.type === 'application/*') return fallback;
    const e = lookup(range.type, options.strictHeaders);
    if (e !== undefined) return e;
  }
  throw new RestconfError('NOT_ACCEPTABLE', `no acceptable media type in Accept: ${accept.slice(0, 200)}`, {
    errorTag: 'invalid-value',
  });
}

/** True when Accept allows `type` (exactly, by `major/*` or by `* /*`); an absent Accept allows all. */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const major = `${type.split('/')[0]}/*`;
  return parseAccept(accept).some((r) => r.type === type || r.type === major || r.type === '*/*');
}

/**
 * Refuses an Accept that does not allow text/event-stream (RFC 8040 section 6.3, RFC 8650
 * section 3.4): `resource` is served as nothing else.
 *
 * @throws {RestconfError} `NOT_ACCEPTABLE` (406)
 */
export function checkEventStreamAccept(accept: string | undefined, resource: string): void {
  if (accepts(accept, MEDIA.eventStream)) return;
  throw new RestconfError('NOT_ACCEPTABLE', `${resource} is served as text/event-stream only`, {
    errorTag: 'invalid-value',
  });
}

/** What a request body is, from its Content-Type. */
export interface BodyType {
  readonly encoding: Encoding;
  /** True for application/yang-patch+json / +xml (RFC 8072). */
  readonly patch: boolean;
}

/**
 * The encoding of a request body from its Content-Type (RFC 8040 section 5.2); YANG Patch types
 * only where `allowPatch`.
 *
 * @throws {RestconfError} `UNSUPPORTED_MEDIA_TYPE` (415) for any other type
 */
export function bodyType(
  contentType: string | undefined,
  options: NegotiationOptions,
  allowPatch: boolean,
): BodyType {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (allowPatch && type === MEDIA.patchJson) return { encoding: 'json', patch: true };
  if (allowPatch && type === MEDIA.patchXml) return { encoding: 'xml', patch: true };
  const e = lookup(type, options.strictHeaders);
  if (e !== undefined) return { encoding: e, patch: false };
  throw new RestconfError(
    'UNSUPPORTED_MEDIA_TYPE',
    type === '' ? 'a request body needs a Content-Type' : `unsupported Content-Type: ${type.slice(0, 200)}`,
    { errorTag: 'invalid-value' },
  );
}

/** The Content-Type of YANG data in an encoding. */
export function dataMediaType(encoding: Encoding): string {
  return encoding === 'json' ? MEDIA.dataJson : MEDIA.dataXml;
}
