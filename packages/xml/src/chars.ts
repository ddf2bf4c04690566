/**
 * Character classes of XML 1.0 (Fifth Edition) section 2.2 (`Char`) and 2.3 (`NameStartChar`,
 * `NameChar`), tested on UTF-16 code units. A supplementary character (U+10000 and above) is a
 * surrogate pair: its high half is taken as a name start character and its low half as a name
 * character, which is exact once the text is known to hold no lone surrogate.
 */

/** `NameStartChar`: letters, `_`, `:` and the non-ASCII ranges of section 2.3. */
export function isNameStart(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    // High surrogates of U+10000..U+EFFFF.
    (c >= 0xd800 && c <= 0xdb7f) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/** `NameChar`: a name start character, digits, `-`, `.`, U+00B7 and the combining ranges. */
export function isNameChar(c: number): boolean {
  if (c < 0x80) {
    return (
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x5f ||
      c === 0x3a ||
      c === 0x2d ||
      c === 0x2e
    );
  }
  return (
    isNameStart(c) ||
    c === 0xb7 ||
    (c >= 0x300 && c <= 0x36f) ||
    c === 0x203f ||
    c === 0x2040 ||
    // Low surrogates, the second half of a supplementary name character.
    (c >= 0xdc00 && c <= 0xdfff)
  );
}

/** `Char` for a code point (as given by a character reference). */
export function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

// Code units that are not a `Char` by themselves: C0 controls but TAB, LF, CR; U+FFFE, U+FFFF; and
// surrogates, which are fine in pairs. Written as a negated class so no control character stands in it.
const SUSPECT = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/g;

/**
 * Index of the first character of `text` outside XML 1.0 `Char` (a lone surrogate included), or -1.
 * One regular-expression scan; surrogate pairs are the only matches looked at one by one.
 */
export function firstNonXmlChar(text: string, from = 0): number {
  SUSPECT.lastIndex = from;
  for (let m = SUSPECT.exec(text); m !== null; m = SUSPECT.exec(text)) {
    const i = m.index;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        SUSPECT.lastIndex = i + 2;
        continue;
      }
    }
    return i;
  }
  return -1;
}

/** `U+XXXX` of the character (or lone surrogate) at `i`. */
export function codePointName(text: string, i: number): string {
  return `U+${text.codePointAt(i)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
