import { YangTypeError } from './errors';
import { type CharSet, charSetToJs, cp, mergeInto, multiCharEscape, propertySet, span } from './xsd-char-set';

/** Longest pattern accepted (in code points); the longest in the IETF/OpenConfig corpus is ~1 KiB. */
export const MAX_PATTERN_LENGTH = 16_384;
/** Deepest nesting of groups and character-class subtractions accepted. */
export const MAX_PATTERN_DEPTH = 64;
/** Largest {n,m} bound accepted, so a translated expression cannot exhaust the RegExp compiler. */
export const MAX_QUANTIFIER = 10_000;

const ESCAPABLE = new Set([...'nrt\\|.?*+(){}-[]^']);

/**
 * Translates an XML Schema regular expression (XSD 1.0 Part 2, Appendix F, as YANG patterns use it, RFC 7950
 * 9.4.5) into an anchored JS RegExp with the 'u' flag: `^(?:...)$`. Supports character class subtraction,
 * `\i \c \I \C`, `\p{Is<Block>}` and `\p{<Category>}`; `^` and `$` are ordinary characters; `.` matches any
 * character but \n and \r. Backreferences, lookaround, lazy quantifiers and anchors do not exist in XSD and
 * are rejected. Throws YangTypeError.
 */
export function translateXsdRegex(source: string): RegExp {
  const body = new Translator(source).run();
  try {
    return new RegExp(`^(?:${body})$`, 'u');
  } catch (cause) {
    throw new YangTypeError(`pattern "${clip(source)}": cannot be compiled: ${(cause as Error).message}`, {
      cause,
    });
  }
}

class Translator {
  private readonly chars: string[];
  private i = 0;
  private depth = 0;

  constructor(private readonly source: string) {
    if (source.length > MAX_PATTERN_LENGTH * 2) this.fail(`is longer than ${MAX_PATTERN_LENGTH} characters`);
    this.chars = Array.from(source);
    if (this.chars.length > MAX_PATTERN_LENGTH) this.fail(`is longer than ${MAX_PATTERN_LENGTH} characters`);
  }

  run(): string {
    const out = this.regExp();
    if (this.i < this.chars.length) this.fail(`unbalanced ")" at offset ${this.i}`);
    return out;
  }

  // regExp ::= branch ( '|' branch )*
  private regExp(): string {
    const branches = [this.branch()];
    while (this.peek() === '|') {
      this.i++;
      branches.push(this.branch());
    }
    return branches.join('|');
  }

  // branch ::= piece*     piece ::= atom quantifier?
  private branch(): string {
    let out = '';
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      const atom = this.atom();
      out += atom + this.quantifier();
    }
    return out;
  }

  private atom(): string {
    const c = this.next();
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return charSetToJs(this.charClassExpr());
      case '.':
        // XSD F.3.1: "." is [^\n\r].
        return '[^\\n\\r]';
      case '\\':
        return this.setToJs(this.escape(false));
      case '?':
      case '*':
      case '+':
        return this.fail(`quantifier "${c}" at offset ${this.i - 1} has nothing to repeat`);
      case '{':
        return this.fail(`quantifier "{" at offset ${this.i - 1} has nothing to repeat`);
      case ']':
        return this.fail(`unescaped "]" at offset ${this.i - 1}`);
      case '}':
        // Not a Char in XSD, but libxml2 and PCRE-based YANG tools read a stray '}' as itself.
        return literal(c);
      default:
        return literal(c!);
    }
  }

  private group(): string {
    if (this.peek() === '?') {
      this.fail(
        `"(?" at offset ${this.i - 1}: lookaround and non-capturing group syntax do not exist in XSD regular expressions`,
      );
    }
    this.enter();
    const inner = this.regExp();
    if (this.next() !== ')') this.fail('missing ")"');
    this.depth--;
    return `(?:${inner})`;
  }

  // quantifier ::= [?*+] | ( '{' quantity '}' )
  private quantifier(): string {
    const c = this.peek();
    let q = '';
    if (c === '?' || c === '*' || c === '+') {
      this.i++;
      q = c;
    } else if (c === '{') {
      this.i++;
      let text = '';
      while (this.peek() !== undefined && this.peek() !== '}') text += this.next();
      if (this.next() !== '}') this.fail('missing "}" in quantifier');
      const m = /^([0-9]+)(,([0-9]*))?$/.exec(text);
      if (!m) this.fail(`"{${clip(text)}}" is not a quantifier {n}, {n,} or {n,m}`);
      const min = Number(m![1]);
      const max = m![3] ? Number(m![3]) : undefined;
      if (min > MAX_QUANTIFIER || (max !== undefined && max > MAX_QUANTIFIER)) {
        this.fail(`quantifier {${text}} exceeds ${MAX_QUANTIFIER}`);
      }
      if (max !== undefined && max < min) this.fail(`quantifier {${text}} has its maximum below its minimum`);
      q = `{${min}${m![2] ? `,${max ?? ''}` : ''}}`;
    } else {
      return '';
    }
    const after = this.peek();
    if (after === '?' || after === '*' || after === '+' || after === '{') {
      this.fail(
        `"${q}${after}" at offset ${this.i}: lazy, possessive and stacked quantifiers do not exist in XSD regular expressions`,
      );
    }
    return q;
  }

  /** charClassExpr ::= '[' charGroup ']'; the '[' is already consumed. */
  private charClassExpr(): CharSet {
    this.enter();
    const set: CharSet = { pos: '', alts: [], negated: false };
    if (this.peek() === '^') {
      this.i++;
      set.negated = true;
    }
    let items = 0;
    // After a multi-character escape a '-' cannot start a range, so it is read as a literal ("[\w-.]").
    let afterSet = false;
    for (;;) {
      const c = this.next();
      if (c === undefined) this.fail('missing "]"');
      if (c === ']') {
        if (items === 0) this.fail('empty character class');
        break;
      }
      if (c === '-' && this.peek() === '[') {
        // charClassSub ::= ( posCharGroup | negCharGroup ) '-' charClassExpr, and it ends the group.
        if (items === 0) this.fail('character class subtraction needs a group to subtract from');
        this.i++;
        set.minus = this.charClassExpr();
        if (this.next() !== ']') this.fail('character class subtraction must end its group');
        break;
      }
      if (c === '[') this.fail(`unescaped "[" at offset ${this.i - 1} inside a character class`);
      items++;
      let start: number;
      if (c === '\\') {
        const esc = this.escape(true);
        afterSet = typeof esc !== 'number';
        if (typeof esc !== 'number') {
          mergeInto(set, esc);
          continue;
        }
        start = esc;
      } else if (c === '-' && afterSet) {
        afterSet = false;
        set.pos += cp(0x2d);
        continue;
      } else {
        start = c!.codePointAt(0)!;
      }
      afterSet = false;
      // seRange ::= charOrEsc '-' charOrEsc; a '-' before ']' or '[' is a literal or a subtraction.
      if (
        this.peek() === '-' &&
        this.peekAt(1) !== ']' &&
        this.peekAt(1) !== '[' &&
        this.peekAt(1) !== undefined
      ) {
        this.i++;
        const e = this.next()!;
        let end: number;
        if (e === '\\') {
          const esc = this.escape(true);
          if (typeof esc !== 'number') this.fail('a character range cannot end in a multi-character escape');
          end = esc as number;
        } else if (e === '[') {
          return this.fail(`unescaped "[" at offset ${this.i - 1} inside a character class`);
        } else {
          end = e.codePointAt(0)!;
        }
        if (end < start) this.fail(`character range ${show(start)}-${show(end)} is out of order`);
        set.pos += span(start, end);
      } else {
        set.pos += cp(start);
      }
    }
    this.depth--;
    return set;
  }

  /**
   * After a backslash: SingleCharEsc returns the code point; MultiCharEsc, catEsc and complEsc return a set.
   */
  private escape(inClass: boolean): number | CharSet {
    const c = this.next();
    if (c === undefined) return this.fail('trailing backslash');
    switch (c) {
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'p':
      case 'P':
        return this.property(c === 'P');
      default: {
        const multi = multiCharEscape(c);
        if (multi) return multi;
        if (ESCAPABLE.has(c)) return c.codePointAt(0)!;
        // An escaped ASCII punctuation character outside the XSD list ("\$", "\/") is read as itself, as
        // libxml2 and PCRE-based YANG tools do; modules in the wild rely on it.
        if (/^[!-/:-@[-`{-~]$/.test(c)) return c.codePointAt(0)!;
        if (c >= '0' && c <= '9') {
          return this.fail(`"\\${c}": backreferences do not exist in XSD regular expressions`);
        }
        return this.fail(`"\\${c}" is not an XSD escape${inClass ? ' (inside a character class)' : ''}`);
      }
    }
  }

  // catEsc ::= '\p{' charProp '}'    complEsc ::= '\P{' charProp '}'
  private property(complement: boolean): CharSet {
    if (this.next() !== '{') this.fail('"\\p" and "\\P" must be followed by "{"');
    let name = '';
    while (this.peek() !== undefined && this.peek() !== '}' && name.length <= 64) name += this.next();
    if (this.next() !== '}') this.fail('missing "}" after "\\p{"');
    const set = propertySet(name, complement);
    if (set) return set;
    return this.fail(
      `"\\p{${clip(name)}}" names an unknown ${name.startsWith('Is') ? 'Unicode block' : 'general category'}`,
    );
  }

  /** A set used on its own outside brackets. */
  private setToJs(esc: number | CharSet): string {
    return typeof esc === 'number' ? literal(String.fromCodePoint(esc)) : charSetToJs(esc);
  }

  private enter(): void {
    if (++this.depth > MAX_PATTERN_DEPTH) this.fail(`nests deeper than ${MAX_PATTERN_DEPTH} levels`);
  }

  private peek(): string | undefined {
    return this.chars[this.i];
  }

  private peekAt(offset: number): string | undefined {
    return this.chars[this.i + offset];
  }

  private next(): string | undefined {
    return this.chars[this.i++];
  }

  private fail(reason: string): never {
    throw new YangTypeError(`pattern "${clip(this.source)}": ${reason}`);
  }
}

function literal(c: string): string {
  return cp(c.codePointAt(0)!);
}

function show(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
