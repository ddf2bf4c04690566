import { RestconfUriError } from './errors.js';

// Characters outside XML 1.0 `Char` (section 2.2), lone surrogates included (u flag).
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const TEXT_SPECIAL = /[&<>\r]/g;
const ATTR_SPECIAL = /[&<>"\t\n\r]/g;
const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function checkChars(value: string): void {
  const bad = NOT_XML_CHAR.exec(value);
  if (bad !== null) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `value ${JSON.stringify(value)} holds U+${code}, which XML 1.0 cannot carry`,
      { badValue: value },
    );
  }
}

/**
 * Escapes text content for XML (`& < >`, and CR so it survives end-of-line handling).
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for characters XML 1.0 forbids
 */
export function escapeXmlText(value: string): string {
  checkChars(value);
  return value.replace(TEXT_SPECIAL, (c) => ENTITY[c]!);
}

/**
 * Escapes an attribute value for a double-quoted XML attribute (tab, LF and CR as character
 * references so attribute-value normalization keeps them).
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for characters XML 1.0 forbids
 */
export function escapeXmlAttribute(value: string): string {
  checkChars(value);
  return value.replace(ATTR_SPECIAL, (c) => ENTITY[c]!);
}
