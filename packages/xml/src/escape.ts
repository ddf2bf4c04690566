import { codePointName, firstNonXmlChar } from './chars.js';
import { XmlError } from './errors.js';

/*
 * The one escaping rule. Text: `&`, `<` and `>` as `&amp;`, `&lt;`, `&gt;` (`>` only needs it in
 * `]]>`, but always escaping it is simpler to check), and CR as `&#13;`, since a reader turns a
 * literal CR into LF (XML 1.0 section 2.11). Attribute values (written in double quotes): the same,
 * plus `"` as `&quot;` and TAB, LF and CR as `&#9;`, `&#10;`, `&#13;`, since a reader turns literal
 * ones into spaces (section 3.3.3). So whatever is escaped reads back exactly. A character XML 1.0
 * cannot carry at all (section 2.2: most C0 controls, U+FFFE, U+FFFF, lone surrogates) throws: no
 * escape exists for it, and writing it would make the document unreadable.
 */

// Code units needing a look: the specials above and anything outside `Char` (surrogates included,
// which are fine in pairs). Negated classes, so that a value needing nothing is one regex test.
const TEXT_SPECIAL = /[^\t\n\u0020-\u0025\u0027-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;
const ATTRIBUTE_SPECIAL = /[^\u0020\u0021\u0023-\u0025\u0027-\u003B\u003D\u003F-\uD7FF\uE000-\uFFFD]/;
const TEXT_ESCAPED = /[&<>\r]/g;
const ATTRIBUTE_ESCAPED = /[&<>"\t\n\r]/g;
const REFERENCE: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

function checkChars(value: string): void {
  const bad = firstNonXmlChar(value);
  if (bad >= 0) {
    throw new XmlError(
      'XML_INVALID_CHAR',
      `${codePointName(value, bad)} at index ${bad} of ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value)} cannot be written in XML 1.0`,
    );
  }
}

/**
 * Escapes character data for element content (`&`, `<`, `>`, CR).
 * @throws {XmlError} `XML_INVALID_CHAR` for a character XML 1.0 cannot carry
 */
export function escapeXmlText(value: string): string {
  if (!TEXT_SPECIAL.test(value)) return value;
  checkChars(value);
  return value.replace(TEXT_ESCAPED, (c) => REFERENCE[c]!);
}

/**
 * Escapes an attribute value written in double quotes (`&`, `<`, `>`, `"`, TAB, LF, CR).
 * @throws {XmlError} `XML_INVALID_CHAR` for a character XML 1.0 cannot carry
 */
export function escapeXmlAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIAL.test(value)) return value;
  checkChars(value);
  return value.replace(ATTRIBUTE_ESCAPED, (c) => REFERENCE[c]!);
}

const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * `value` with every character XML 1.0 cannot carry replaced by U+FFFD: for text that must be
 * written whatever it holds, such as an error message quoting the input.
 */
export function replaceNonXmlChars(value: string): string {
  return firstNonXmlChar(value) < 0 ? value : value.replace(NOT_XML_CHAR, '\uFFFD');
}
