import { RestconfUriError } from './errors.js';

const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Decodes every `%XX` sequence of `text` as UTF-8 (RFC 3986 section 2.1). Characters that are
 * not percent-encoded are kept as they are; `+` stays `+` (RFC 3986 gives it no meaning, unlike
 * HTML forms).
 *
 * @param text the encoded text
 * @param what names the part being decoded, for the error message
 * @param offset offset of `text` inside the string the caller parses, for error offsets
 * @throws {RestconfUriError} `URI_BAD_PERCENT_ENCODING`
 */
export function percentDecode(text: string, what: string, offset = 0): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw locateBadEncoding(text, what, offset);
  }
}

/** Finds the first bad escape for an exact error message (slow path, errors only). */
function locateBadEncoding(text: string, what: string, offset: number): RestconfUriError {
  let i = text.indexOf('%');
  while (i !== -1) {
    if (!HEX.test(text.slice(i + 1, i + 3))) {
      return new RestconfUriError(
        'URI_BAD_PERCENT_ENCODING',
        `${what}: '%' at offset ${offset + i} is not followed by two hex digits`,
        { offset: offset + i, badValue: text.slice(i, i + 3) },
      );
    }
    // A run of escapes forms one UTF-8 sequence candidate; decode runs one at a time.
    let end = i;
    while (text[end] === '%' && HEX.test(text.slice(end + 1, end + 3))) end += 3;
    try {
      decodeURIComponent(text.slice(i, end));
    } catch (cause) {
      return new RestconfUriError(
        'URI_BAD_PERCENT_ENCODING',
        `${what}: '${text.slice(i, end)}' at offset ${offset + i} is not valid UTF-8`,
        { offset: offset + i, badValue: text.slice(i, end), cause },
      );
    }
    i = text.indexOf('%', end);
  }
  return new RestconfUriError('URI_BAD_PERCENT_ENCODING', `${what}: invalid percent-encoding`, { offset });
}

const KEEP = /%(?:24|3A|40)/g;
const KEPT: Readonly<Record<string, string>> = { '%24': '$', '%3A': ':', '%40': '@' };

/**
 * Percent-encodes a value (list key, leaf-list value, stream name) for use in a path segment.
 *
 * Kept as is: letters, digits, `- . _ ~ ! $ ' ( ) : @`. Everything else is encoded as UTF-8,
 * which covers what RFC 8040 section 3.5.3 requires (`, / = %`), what breaks URL handling
 * (`? # [ ] & + ; \`, space, controls) and all non-ASCII text. `*` is encoded too: written bare
 * it is the wildcard key of servers that support wildcard keys (RFC 3986 section 2.2 encodes a
 * reserved character that is data).
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for a string holding a lone surrogate
 */
export function percentEncode(value: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch (cause) {
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `value ${JSON.stringify(value)} holds a lone surrogate and has no UTF-8 form`,
      { badValue: value, cause },
    );
  }
  if (encoded.includes('*')) encoded = encoded.replaceAll('*', '%2A');
  return encoded.includes('%') ? encoded.replace(KEEP, (m) => KEPT[m] ?? m) : encoded;
}
