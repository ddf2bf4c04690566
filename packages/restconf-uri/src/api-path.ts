import { RestconfUriError } from './errors.js';
import { isIdentifier } from './identifier.js';
import { percentDecode, percentEncode } from './percent-encoding.js';

/**
 * One step of an api-path (RFC 8040 section 3.5.3): `[module ":"] name ["=" key *("," key)]`.
 * `module` is present only when written; `keys` holds the decoded list key values or the one
 * leaf-list value, present only when `=` was written.
 */
export interface ApiPathSegment {
  readonly module?: string;
  readonly name: string;
  readonly keys?: readonly string[];
  /**
   * Indexes into `keys` of the values written as a bare `*` (not `%2A`): the wildcard of servers
   * that support wildcard keys. Present only when there is one. Formatting writes these bare and
   * encodes every other `*`.
   */
  readonly wildcards?: readonly number[];
}

/** A parsed api-path: the steps below `{+restconf}/data` (an empty path is the datastore). */
export interface ApiPath {
  readonly segments: readonly ApiPathSegment[];
}

/** Size limits for {@link parseApiPath}; every input beyond them is rejected, never parsed. */
export interface ApiPathLimits {
  /** Longest accepted text in UTF-16 code units. Default 8192. */
  readonly maxLength?: number;
  /** Most segments. Default 128. */
  readonly maxSegments?: number;
  /** Most key values in one segment. Default 64. */
  readonly maxKeys?: number;
}

/** Options of {@link parseApiPath}. */
export interface ParseApiPathOptions extends ApiPathLimits {
  /** Offset of `text` inside a larger string, added to error offsets. Default 0. */
  readonly offset?: number;
}

/** Default limits of {@link parseApiPath}. */
export const DEFAULT_API_PATH_LIMITS: Required<ApiPathLimits> = {
  maxLength: 8192,
  maxSegments: 128,
  maxKeys: 64,
};

/**
 * Parses an api-path such as `/example-jukebox:jukebox/library/artist=Foo%20Fighters`.
 *
 * - A leading `/` is optional; `""` and `"/"` are the empty path (the datastore itself).
 * - One trailing `/` is ignored (`a:b/` equals `a:b`); any other empty segment (`//`) is an error.
 * - Key values are split at raw `,` and then percent-decoded, so `%2C` is a comma inside a
 *   value and `a=,x` holds the keys `""` and `"x"` (RFC 8040 section 3.5.3.1).
 * - Module qualification is not enforced here (YANG Patch targets are relative);
 *   {@link resolveApiPath} applies the RFC rules against a schema.
 *
 * @throws {RestconfUriError} with `errorTag` `invalid-value` (400) naming the bad part and offset
 */
export function parseApiPath(text: string, options: ParseApiPathOptions = {}): ApiPath {
  const base = options.offset ?? 0;
  const maxLength = options.maxLength ?? DEFAULT_API_PATH_LIMITS.maxLength;
  const maxSegments = options.maxSegments ?? DEFAULT_API_PATH_LIMITS.maxSegments;
  const maxKeys = options.maxKeys ?? DEFAULT_API_PATH_LIMITS.maxKeys;
  if (text.length > maxLength) {
    throw new RestconfUriError(
      'URI_TOO_LONG',
      `api-path of ${text.length} characters exceeds the limit of ${maxLength}`,
      { offset: base + maxLength },
    );
  }
  const segments: ApiPathSegment[] = [];
  if (text === '' || text === '/') return { segments };
  let pos = text.startsWith('/') ? 1 : 0;
  let end = text.length;
  if (text.charCodeAt(end - 1) === 0x2f) end -= 1;
  while (pos <= end) {
    let next = text.indexOf('/', pos);
    if (next === -1 || next > end) next = end;
    if (segments.length === maxSegments) {
      throw new RestconfUriError(
        'URI_TOO_LONG',
        `api-path has more than ${maxSegments} segments (offset ${base + pos})`,
        { offset: base + pos },
      );
    }
    segments.push(parseSegment(text, pos, next, base, maxKeys));
    pos = next + 1;
  }
  return { segments };
}

const EQUALS = 0x3d;
const COMMA = 0x2c;
const PERCENT = 0x25;
const QUESTION = 0x3f;
const HASH = 0x23;
const COLON = 0x3a;

// ASCII classes of the identifier grammar: first character, then any later character.
const ID_START = new Uint8Array(128);
const ID_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ID_START[c] = /[A-Za-z_]/.test(ch) ? 1 : 0;
  ID_CHAR[c] = /[A-Za-z0-9_.-]/.test(ch) ? 1 : 0;
}

// One pass over the segment: '=' splits name from keys, ',' splits keys; values are decoded
// only when they hold a '%' (the common case has none).
function parseSegment(
  text: string,
  start: number,
  end: number,
  base: number,
  maxKeys: number,
): ApiPathSegment {
  if (start === end) {
    throw new RestconfUriError(
      'URI_EMPTY_SEGMENT',
      `api-path has an empty segment at offset ${base + start}`,
      {
        offset: base + start,
        badValue: text.slice(0, end + 1),
      },
    );
  }
  // Scan the name part, validating `[module ":"] identifier` on the way; an encoded or
  // invalid name takes the slow path below, which decodes it and reports the exact problem.
  let eq = -1;
  let encoded = false;
  let colon = -1;
  let partStart = start;
  let valid = true;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === EQUALS) {
      eq = i;
      break;
    }
    if (c === QUESTION || c === HASH) throw unescaped(text, start, end, i, base);
    if (c === PERCENT) encoded = true;
    else if (c === COLON && colon === -1) {
      if (i === partStart) valid = false;
      colon = i;
      partStart = i + 1;
    } else if (c >= 128 || (i === partStart ? ID_START[c] !== 1 : ID_CHAR[c] !== 1)) valid = false;
  }
  const identEnd = eq === -1 ? end : eq;
  let module: string | undefined;
  let name: string;
  if (!encoded && valid && partStart < identEnd) {
    module = colon === -1 ? undefined : text.slice(start, colon);
    name = text.slice(partStart, identEnd);
  } else {
    const identText = text.slice(start, identEnd);
    const ident = encoded
      ? percentDecode(identText, `api-path segment '${text.slice(start, end)}'`, base + start)
      : identText;
    const at = ident.indexOf(':');
    module = at === -1 ? undefined : ident.slice(0, at);
    name = at === -1 ? ident : ident.slice(at + 1);
    if ((module !== undefined && !isIdentifier(module)) || !isIdentifier(name)) {
      const what = identText === '' ? 'an empty node name' : `'${identText}', not [module:]identifier`;
      throw new RestconfUriError(
        'URI_BAD_IDENTIFIER',
        `api-path segment '${text.slice(start, end)}' at offset ${base + start} has ${what}`,
        { offset: base + start, badValue: identText },
      );
    }
  }
  if (eq === -1) return module === undefined ? { name } : { module, name };
  const keys: string[] = [];
  let wildcards: number[] | undefined;
  let keyStart = eq + 1;
  encoded = false;
  for (let i = keyStart; i <= end; i++) {
    const c = i === end ? COMMA : text.charCodeAt(i);
    if (c === COMMA) {
      if (keys.length === maxKeys) {
        throw new RestconfUriError(
          'URI_TOO_LONG',
          `api-path segment '${text.slice(start, end)}' has more than ${maxKeys} key values`,
          { offset: base + keyStart, badValue: text.slice(start, end) },
        );
      }
      const raw = text.slice(keyStart, i);
      if (raw === '*') (wildcards ??= []).push(keys.length);
      keys.push(
        encoded
          ? percentDecode(raw, `key value in segment '${text.slice(start, end)}'`, base + keyStart)
          : raw,
      );
      keyStart = i + 1;
      encoded = false;
    } else if (c === PERCENT) encoded = true;
    else if (c === QUESTION || c === HASH) throw unescaped(text, start, end, i, base);
  }
  const segment: ApiPathSegment = module === undefined ? { name, keys } : { module, name, keys };
  return wildcards === undefined ? segment : { ...segment, wildcards };
}

function unescaped(text: string, start: number, end: number, at: number, base: number): RestconfUriError {
  const raw = text.slice(start, end);
  return new RestconfUriError(
    'URI_UNESCAPED_CHARACTER',
    `api-path segment '${raw}' holds a raw '${text[at]}' at offset ${base + at}; it must be percent-encoded`,
    { offset: base + at, badValue: raw },
  );
}

/**
 * Formats an api-path with a leading `/` (the empty path gives `""`), percent-encoding key
 * values with {@link percentEncode} so that `parseApiPath(formatApiPath(p))` equals `p`.
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for a name that is not an identifier,
 *   an empty `keys` array or a value with a lone surrogate
 */
export function formatApiPath(path: ApiPath): string {
  let out = '';
  for (const segment of path.segments) out += `/${formatSegment(segment)}`;
  return out;
}

/** Formats one segment (no leading `/`); see {@link formatApiPath}. */
export function formatApiPathSegment(segment: ApiPathSegment): string {
  return formatSegment(segment);
}

function formatSegment(segment: ApiPathSegment): string {
  const { module, name, keys } = segment;
  if ((module !== undefined && !isIdentifier(module)) || !isIdentifier(name)) {
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `'${module === undefined ? name : `${module}:${name}`}' is not [module:]identifier`,
      { badValue: name },
    );
  }
  const head = module === undefined ? name : `${module}:${name}`;
  if (keys === undefined) return head;
  if (keys.length === 0) {
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `segment '${head}' has an empty keys array; '=' needs at least one value`,
      { badValue: head },
    );
  }
  let out = `${head}=`;
  for (let i = 0; i < keys.length; i++) {
    const wild = keys[i] === '*' && segment.wildcards?.includes(i) === true;
    out += (i === 0 ? '' : ',') + (wild ? '*' : percentEncode(keys[i]!));
  }
  return out;
}
