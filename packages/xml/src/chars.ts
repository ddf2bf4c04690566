/** XML 1.0 (Fifth Edition) section 2.2 `Char`, for the reader and the writer. */

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
