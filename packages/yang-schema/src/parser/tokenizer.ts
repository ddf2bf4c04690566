import { type SourceLocation, YangSyntaxError } from '../errors';

/** A lexical token of the YANG statement grammar (RFC 7950 section 6.1). */
export type Token =
  | {
      readonly type: 'string';
      readonly value: string;
      readonly quoted: boolean;
      readonly line: number;
      readonly column: number;
    }
  | { readonly type: ';' | '{' | '}'; readonly line: number; readonly column: number };

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const SEMI = 0x3b;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const SLASH = 0x2f;
const STAR = 0x2a;
const PLUS = 0x2b;
const BACKSLASH = 0x5c;

/**
 * Splits YANG text into tokens. Strings are fully processed: concatenation with `+`
 * (RFC 7950 6.1.3), escapes and the indentation rule of double-quoted strings.
 */
export class Tokenizer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  constructor(
    private readonly text: string,
    private readonly file: string | undefined,
    private readonly yang11: () => boolean,
  ) {}

  /** Location of the current position (1-based). */
  here(): SourceLocation {
    return this.loc(this.line, this.pos - this.lineStart + 1);
  }

  private loc(line: number, column: number): SourceLocation {
    return this.file === undefined ? { line, column } : { file: this.file, line, column };
  }

  private fail(message: string, line = this.line, column = this.pos - this.lineStart + 1): never {
    throw new YangSyntaxError(message, this.loc(line, column));
  }

  /** Skips whitespace and comments; returns false at end of input. */
  private skipSpace(): boolean {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === LF) {
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
      } else if (c === SPACE || c === TAB || c === CR) {
        this.pos++;
      } else if (c === SLASH && t.charCodeAt(this.pos + 1) === SLASH) {
        const end = t.indexOf('\n', this.pos);
        this.pos = end < 0 ? t.length : end;
      } else if (c === SLASH && t.charCodeAt(this.pos + 1) === STAR) {
        const startLine = this.line;
        const startCol = this.pos - this.lineStart + 1;
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('unterminated block comment', startLine, startCol);
        for (let i = this.pos; i < end; i++) {
          if (t.charCodeAt(i) === LF) {
            this.line++;
            this.lineStart = i + 1;
          }
        }
        this.pos = end + 2;
      } else {
        return true;
      }
    }
    return false;
  }

  /** Returns the next token, or undefined at end of input. */
  next(): Token | undefined {
    if (!this.skipSpace()) return undefined;
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    const line = this.line;
    const column = this.pos - this.lineStart + 1;
    if (c === SEMI || c === LBRACE || c === RBRACE) {
      this.pos++;
      return { type: c === SEMI ? ';' : c === LBRACE ? '{' : '}', line, column };
    }
    if (c === DQUOTE || c === SQUOTE) {
      let value = this.quoted();
      // RFC 7950 6.1.3: quoted strings may be concatenated with "+".
      for (;;) {
        const save = { pos: this.pos, line: this.line, lineStart: this.lineStart };
        if (!this.skipSpace() || t.charCodeAt(this.pos) !== PLUS) {
          Object.assign(this, save);
          break;
        }
        this.pos++;
        if (!this.skipSpace()) this.fail('expected a quoted string after "+"');
        const q = t.charCodeAt(this.pos);
        if (q !== DQUOTE && q !== SQUOTE) this.fail('expected a quoted string after "+"');
        value += this.quoted();
      }
      return { type: 'string', value, quoted: true, line, column };
    }
    return { type: 'string', value: this.unquoted(), quoted: false, line, column };
  }

  /** An unquoted string: no whitespace, quotes, ";", braces or comment starts (RFC 7950 6.1.3). */
  private unquoted(): string {
    const t = this.text;
    const start = this.pos;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === SPACE || c === TAB || c === LF || c === CR || c === SEMI || c === LBRACE || c === RBRACE)
        break;
      if (c === DQUOTE || c === SQUOTE) this.fail('quote character inside an unquoted string');
      if (c === SLASH && (t.charCodeAt(this.pos + 1) === SLASH || t.charCodeAt(this.pos + 1) === STAR)) break;
      if (c === STAR && t.charCodeAt(this.pos + 1) === SLASH) this.fail('"*/" inside an unquoted string');
      this.pos++;
    }
    return t.slice(start, this.pos);
  }

  /** Visual column (tabs count 8, RFC 7950 6.1.3) of the current position on its line. */
  private visualColumn(): number {
    let col = 0;
    for (let i = this.lineStart; i < this.pos; i++) col += this.text.charCodeAt(i) === TAB ? 8 : 1;
    return col;
  }

  private quoted(): string {
    const t = this.text;
    const quote = t.charCodeAt(this.pos);
    const startLine = this.line;
    const startCol = this.pos - this.lineStart + 1;
    if (quote === SQUOTE) {
      const end = t.indexOf("'", this.pos + 1);
      if (end < 0) this.fail('unterminated single-quoted string', startLine, startCol);
      const value = t.slice(this.pos + 1, end);
      for (let i = this.pos; i < end; i++) {
        if (t.charCodeAt(i) === LF) {
          this.line++;
          this.lineStart = i + 1;
        }
      }
      this.pos = end + 1;
      return value;
    }
    // Double-quoted: whitespace up to and including the quote's column is stripped after each
    // line break, trailing whitespace before a line break is stripped (RFC 7950 6.1.3).
    const indent = this.visualColumn() + 1;
    this.pos++;
    let out = '';
    let keep = 0; // out.length below which trailing-whitespace stripping must not reach (escapes)
    for (;;) {
      if (this.pos >= t.length) this.fail('unterminated double-quoted string', startLine, startCol);
      const c = t.charCodeAt(this.pos);
      if (c === DQUOTE) {
        this.pos++;
        return out;
      }
      if (c === BACKSLASH) {
        const e = t[this.pos + 1];
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === '"') out += '"';
        else if (e === '\\') out += '\\';
        else if (this.yang11()) this.fail(`invalid escape sequence "\\${e ?? ''}" in a double-quoted string`);
        else out += `\\${e ?? ''}`;
        this.pos += 2;
        keep = out.length;
        continue;
      }
      if (c === LF) {
        let end = out.length;
        while (end > keep) {
          const ch = out.charCodeAt(end - 1);
          if (ch !== SPACE && ch !== TAB && ch !== CR) break;
          end--;
        }
        out = `${out.slice(0, end)}\n`;
        keep = out.length;
        this.pos++;
        this.line++;
        this.lineStart = this.pos;
        let col = 0;
        while (col < indent && this.pos < t.length) {
          const w = t.charCodeAt(this.pos);
          if (w === SPACE) col++;
          else if (w === TAB) {
            if (col + 8 > indent) {
              // A tab straddling the indentation column: keep the part beyond it as spaces.
              out += ' '.repeat(col + 8 - indent);
              keep = out.length;
              col = indent;
              this.pos++;
              break;
            }
            col += 8;
          } else break;
          this.pos++;
        }
        continue;
      }
      let run = this.pos + 1;
      while (run < t.length) {
        const r = t.charCodeAt(run);
        if (r === DQUOTE || r === BACKSLASH || r === LF) break;
        run++;
      }
      out += t.slice(this.pos, run);
      this.pos = run;
    }
  }
}
