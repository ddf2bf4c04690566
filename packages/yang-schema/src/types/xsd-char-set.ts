import { XSD_BLOCKS, XSD_CATEGORIES } from './xsd-blocks';

/**
 * A set of characters during XSD regex translation: `pos` is JS class contents (placed inside `[...]`), each
 * entry of `alts` is a JS expression matching one character of a set that has no in-class spelling under the
 * 'u' flag (`\S`, `\w`, `\i`, `\P{IsBlock}`...); `negated` is `[^...]`, `minus` is XSD class subtraction.
 */
export interface CharSet {
  pos: string;
  alts: string[];
  negated: boolean;
  minus?: CharSet;
}

/**
 * XSD 1.0 defines `\i` as XML 1.0 `Letter | '_' | ':'` and `\c` as `NameChar`, whose tables XML 1.0
 * Appendix B derives from Unicode categories: name start characters are Ll, Lu, Lo, Lt, Nl (plus
 * U+02BB..U+02C1 and U+06E5..U+06E6), name characters add Mc, Me, Mn, Lm, Nd, '.', '-', U+00B7 and U+0387;
 * the compatibility area U+F900..U+FFFE, U+20DD..U+20E0 and (as in Unicode 2.0) everything beyond the BMP
 * are excluded. The rule is applied to the Unicode version of the JavaScript engine.
 */
const NAME_EXCLUDED = '\\u{f900}-\\u{fffe}\\u{10000}-\\u{10ffff}';
const NAME_START_CLASS = '\\p{Ll}\\p{Lu}\\p{Lo}\\p{Lt}\\p{Nl}\\u{2bb}-\\u{2c1}\\u{6e5}\\u{6e6}_:';
const NAME_START = `(?:(?![${NAME_EXCLUDED}])[${NAME_START_CLASS}])`;
const NAME_CHAR = `(?:(?![${NAME_EXCLUDED}\\u{20dd}-\\u{20e0}])[${NAME_START_CLASS}\\p{Mc}\\p{Me}\\p{Mn}\\p{Lm}\\p{Nd}.\\-\\u{b7}\\u{387}])`;

/** The multi-character escapes of XSD F.1.1 (`\s \S \d \D \w \W \i \I \c \C`), or undefined for others. */
export function multiCharEscape(c: string): CharSet | undefined {
  switch (c) {
    case 's':
      return plain(' \\t\\n\\r');
    case 'S':
      return other('[^ \\t\\n\\r]');
    case 'd':
      return plain('\\p{Nd}');
    case 'D':
      return plain('\\P{Nd}');
    // \w is [#x0000-#x10FFFF]-[\p{P}\p{Z}\p{C}], \W its complement.
    case 'w':
      return other('[^\\p{P}\\p{Z}\\p{C}]');
    case 'W':
      return plain('\\p{P}\\p{Z}\\p{C}');
    case 'i':
      return other(NAME_START);
    case 'I':
      return other(`(?:(?!${NAME_START})[^])`);
    case 'c':
      return other(NAME_CHAR);
    case 'C':
      return other(`(?:(?!${NAME_CHAR})[^])`);
    default:
      return undefined;
  }
}

/**
 * The set named by `\p{name}` (or its complement for `\P{name}`): a block `Is<Block>` from the XSD block
 * table or a general category XSD lists. Undefined for an unknown name.
 */
export function propertySet(name: string, complement: boolean): CharSet | undefined {
  if (name.startsWith('Is')) {
    const ranges = XSD_BLOCKS.get(name.slice(2));
    if (!ranges) return undefined;
    const text = ranges.map(([lo, hi]) => span(lo, hi)).join('');
    return complement ? other(`[^${text}]`) : plain(text);
  }
  if (!XSD_CATEGORIES.has(name)) return undefined;
  return plain(`\\${complement ? 'P' : 'p'}{${name}}`);
}

/** Adds an escape's set to a character group being built. */
export function mergeInto(target: CharSet, esc: CharSet): void {
  target.pos += esc.pos;
  target.alts.push(...esc.alts);
}

/** A JS expression matching exactly one character of the set. */
export function charSetToJs(set: CharSet): string {
  let out: string;
  if (set.alts.length === 0) {
    out = `[${set.negated ? '^' : ''}${set.pos}]`;
  } else {
    const alternatives = [...set.alts];
    if (set.pos !== '') alternatives.unshift(`[${set.pos}]`);
    const union = alternatives.length === 1 ? alternatives[0]! : `(?:${alternatives.join('|')})`;
    out = set.negated ? `(?:(?!${union})[^])` : union;
  }
  // XSD F.1.1: [A-[B]] matches what A matches and B does not.
  return set.minus ? `(?:(?!${charSetToJs(set.minus)})${out})` : out;
}

/** JS class contents for the inclusive range lo..hi. */
export function span(lo: number, hi: number): string {
  return lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`;
}

/** A code point spelled so it is literal both inside and outside a JS class under the 'u' flag. */
export function cp(code: number): string {
  if ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) {
    return String.fromCharCode(code);
  }
  return `\\u{${code.toString(16)}}`;
}

function plain(pos: string): CharSet {
  return { pos, alts: [], negated: false };
}

function other(alt: string): CharSet {
  return { pos: '', alts: [alt], negated: false };
}
