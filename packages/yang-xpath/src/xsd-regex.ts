import { XPathEvaluationError } from './errors.js';

/** Longest XSD pattern accepted (UTF-16 code units). */
const MAX_PATTERN_LENGTH = 4096;
/** Deepest group / class nesting accepted. */
const MAX_NESTING = 64;

// XML Schema Part 2, appendix F.1.1 block escapes (the commonly used subset).
const BLOCKS: Record<string, readonly [number, number]> = {
  BasicLatin: [0x0000, 0x007f],
  'Latin-1Supplement': [0x0080, 0x00ff],
  'LatinExtended-A': [0x0100, 0x017f],
  'LatinExtended-B': [0x0180, 0x024f],
  IPAExtensions: [0x0250, 0x02af],
  SpacingModifierLetters: [0x02b0, 0x02ff],
  CombiningDiacriticalMarks: [0x0300, 0x036f],
  Greek: [0x0370, 0x03ff],
  Cyrillic: [0x0400, 0x04ff],
  Armenian: [0x0530, 0x058f],
  Hebrew: [0x0590, 0x05ff],
  Arabic: [0x0600, 0x06ff],
  Devanagari: [0x0900, 0x097f],
  Thai: [0x0e00, 0x0e7f],
  GeneralPunctuation: [0x2000, 0x206f],
  CurrencySymbols: [0x20a0, 0x20cf],
  LetterlikeSymbols: [0x2100, 0x214f],
  Arrows: [0x2190, 0x21ff],
  MathematicalOperators: [0x2200, 0x22ff],
  BoxDrawing: [0x2500, 0x257f],
  Hiragana: [0x3040, 0x309f],
  Katakana: [0x30a0, 0x30ff],
  CJKUnifiedIdeographs: [0x4e00, 0x9fff],
  HangulSyllables: [0xac00, 0xd7a3],
  PrivateUse: [0xe000, 0xf8ff],
  HalfwidthandFullwidthForms: [0xff00, 0xffef],
  Specials: [0xfff0, 0xfffd],
};

const CATEGORIES = new Set(
  'L Lu Ll Lt Lm Lo M Mn Mc Me N Nd Nl No P Pc Pd Ps Pe Pi Pf Po Z Zs Zl Zp S Sm Sc Sk So C Cc Cf Co Cn'.split(
    ' ',
  ),
);

// multi-character escapes of XSD F.1.1, written as JavaScript `v`-mode classes
const MULTI: Record<string, string> = {
  s: '[\\u{20}\\u{9}\\u{a}\\u{d}]',
  S: '[^\\u{20}\\u{9}\\u{a}\\u{d}]',
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  w: '[^\\p{P}\\p{Z}\\p{C}]',
  W: '[\\p{P}\\p{Z}\\p{C}]',
  i: '[\\p{L}\\p{Nl}_:]',
  I: '[^\\p{L}\\p{Nl}_:]',
  c: '[\\p{L}\\p{Nl}\\p{Nd}\\p{Mn}\\p{Mc}\\u{2e}\\u{2d}_:\\u{b7}]',
  C: '[^\\p{L}\\p{Nl}\\p{Nd}\\p{Mn}\\p{Mc}\\u{2e}\\u{2d}_:\\u{b7}]',
};

const SINGLE: Record<string, number> = {
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};
const SINGLE_SELF = new Set(['\\', '|', '.', '?', '*', '+', '(', ')', '{', '}', '-', '[', ']', '^']);

function literal(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return /[A-Za-z0-9]/.test(ch) ? ch : `\\u{${cp.toString(16)}}`;
}

class XsdTranslator {
  private i = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  private fail(message: string): never {
    throw new XPathEvaluationError('INVALID_REGEX', `invalid XSD pattern at offset ${this.i}: ${message}`);
  }

  private peek(): string | undefined {
    const cp = this.src.codePointAt(this.i);
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  private take(): string {
    const ch = this.peek();
    if (ch === undefined) this.fail('unexpected end');
    this.i += ch.length;
    return ch;
  }

  translate(): string {
    const body = this.regExp();
    if (this.i < this.src.length) this.fail(`unexpected '${this.peek()}'`);
    return body;
  }

  private nest(): void {
    if (++this.depth > MAX_NESTING) this.fail('nesting too deep');
  }

  // [1] regExp ::= branch ( '|' branch )*
  private regExp(): string {
    const branches = [this.branch()];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.branch());
    }
    return branches.join('|');
  }

  // [2] branch ::= piece*
  private branch(): string {
    let out = '';
    for (let ch = this.peek(); ch !== undefined && ch !== '|' && ch !== ')'; ch = this.peek()) {
      out += this.atom() + this.quantifier();
    }
    return out;
  }

  // [4] quantifier ::= [?*+] | ( '{' quantity '}' )
  private quantifier(): string {
    const ch = this.peek();
    if (ch === '?' || ch === '*' || ch === '+') {
      this.i++;
      return ch;
    }
    if (ch !== '{') return '';
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
    if (match === null) return this.fail('malformed quantity');
    const min = Number(match[1]);
    if (match[3] !== undefined && match[3] !== '' && Number(match[3]) < min) this.fail('quantity max < min');
    this.i += match[0].length;
    return match[0];
  }

  // [9] atom ::= NormalChar | charClass | ( '(' regExp ')' )
  private atom(): string {
    const ch = this.take();
    switch (ch) {
      case '(': {
        this.nest();
        const inner = this.regExp();
        if (this.take() !== ')') this.fail("missing ')'");
        this.depth--;
        return `(?:${inner})`;
      }
      case '[':
        return this.classExpr();
      case '\\':
        return this.escape(false);
      case '.':
        return '[^\\u{a}\\u{d}]';
      case '?':
      case '*':
      case '+':
      case '{':
      case '}':
      case ')':
      case ']':
        return this.fail(`unexpected '${ch}'`);
      default:
        return literal(ch.codePointAt(0)!);
    }
  }

  /** After a backslash. In a class, single-character escapes return `{cp}` for ranges. */
  private escape(inClass: boolean): string {
    const ch = this.take();
    if (ch in SINGLE) return literal(SINGLE[ch]!);
    if (SINGLE_SELF.has(ch)) return literal(ch.codePointAt(0)!);
    if (ch in MULTI) return MULTI[ch]!;
    if (ch === 'p' || ch === 'P') {
      const match = /^\{([A-Za-z0-9-]+)\}/.exec(this.src.slice(this.i));
      if (match === null) return this.fail('malformed \\p{...}');
      this.i += match[0].length;
      const name = match[1]!;
      const negate = ch === 'P';
      if (CATEGORIES.has(name)) return `\\${ch}{${name}}`;
      const block = name.startsWith('Is') ? BLOCKS[name.slice(2)] : undefined;
      if (block === undefined) return this.fail(`unknown category or block '${name}'`);
      const range = `\\u{${block[0].toString(16)}}-\\u{${block[1].toString(16)}}`;
      return negate ? `[^${range}]` : `[${range}]`;
    }
    return this.fail(`unknown escape '\\${ch}'${inClass ? ' in a character class' : ''}`);
  }

  /** A single character of a class, as a code point, or undefined for a multi-character escape. */
  private classChar(): { cp?: number; text: string } {
    const ch = this.take();
    if (ch === '\\') {
      const next = this.peek();
      if (next !== undefined && (next in SINGLE || SINGLE_SELF.has(next))) {
        this.i += next.length;
        const cp = next in SINGLE ? SINGLE[next]! : next.codePointAt(0)!;
        return { cp, text: literal(cp) };
      }
      return { text: this.escape(true) };
    }
    if (ch === '[') this.fail("unescaped '[' in a character class");
    const cp = ch.codePointAt(0)!;
    return { cp, text: literal(cp) };
  }

  // [11] charClassExpr ::= '[' charGroup ']'; [12] charGroup ::= posCharGroup | negCharGroup | charClassSub
  private classExpr(): string {
    this.nest();
    let negative = false;
    if (this.peek() === '^') {
      this.i++;
      negative = true;
    }
    let items = '';
    let first = true;
    let subtraction: string | undefined;
    while (true) {
      const ch = this.peek();
      if (ch === undefined) this.fail("missing ']'");
      if (ch === ']' && !first) break;
      if (ch === '-' && this.src[this.i + 1] === '[' && !first) {
        this.i += 2;
        subtraction = this.classExpr();
        if (this.peek() !== ']') this.fail('a subtraction must end the character class');
        break;
      }
      if (ch === '-' && !first && this.src[this.i + 1] !== ']')
        this.fail("unescaped '-' in a character class");
      const from = this.classChar();
      first = false;
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && this.src[this.i + 1] !== '[') {
        if (from.cp === undefined) this.fail('a range cannot start with a multi-character escape');
        this.i++;
        const to = this.classChar();
        if (to.cp === undefined) this.fail('a range cannot end with a multi-character escape');
        if (to.cp < from.cp) this.fail('range out of order');
        items += `${from.text}-${to.text}`;
      } else {
        items += from.text;
      }
    }
    this.i++; // ']'
    this.depth--;
    const base = `[${negative ? '^' : ''}${items}]`;
    return subtraction === undefined ? base : `[${base}--${subtraction}]`;
  }
}

/**
 * Translates an XML Schema regular expression (XSD Part 2 appendix F, as YANG `pattern` and
 * `re-match()` use it) into the source of an anchored JavaScript regular expression for the `v`
 * flag: XSD patterns match the whole string, `^`/`$` are ordinary characters, `.` excludes only
 * line ends, and `[a-z-[aeiou]]` subtraction becomes set subtraction.
 */
export function translateXsdRegex(pattern: string): string {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new XPathEvaluationError('INVALID_REGEX', `pattern longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  return `^(?:${new XsdTranslator(pattern).translate()})$`;
}

const cache = new Map<string, RegExp>();
const CACHE_SIZE = 256;

/** Compiles (and caches) an XSD pattern as an anchored JavaScript RegExp. */
export function compileXsdRegex(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (regex !== undefined) return regex;
  const source = translateXsdRegex(pattern);
  try {
    regex = new RegExp(source, 'v');
  } catch (error) {
    throw new XPathEvaluationError('INVALID_REGEX', `invalid XSD pattern '${pattern}'`, undefined, {
      cause: error,
    });
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, regex);
  return regex;
}
