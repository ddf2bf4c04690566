import { CodecError } from './errors';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** The characters that make the structure of JSON text (see `scanPiece`). */
const MARKUP = /[",[\]{}]/g;

/** Names of an object kept in a list up to this many; a larger object gets a Set. */
const SMALL_OBJECT = 16;

/** What {@link JsonReader} hands on, in the order of the text. */
export type JsonEvent =
  /** A container longer than a piece opens (a member of the container open before it, named in an object). */
  | { readonly kind: 'open'; readonly name: string | undefined; readonly array: boolean }
  /** A whole member of the innermost open container, parsed. */
  | { readonly kind: 'member'; readonly name: string | undefined; readonly value: unknown }
  /** The innermost open container closes. */
  | { readonly kind: 'close' }
  /** The whole text, parsed: it held no container longer than a piece at its top. */
  | { readonly kind: 'value'; readonly value: unknown };

const CLOSE: JsonEvent = { kind: 'close' };

export function malformed(message: string, cause?: unknown): CodecError {
  return new CodecError('JSON_MALFORMED', `malformed JSON: ${message}`, {
    errorTag: 'malformed-message',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** `JSON.parse` with its failure as the codec's error. */
function parse(text: string, where: number): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw malformed(`${(cause as Error).message} (in the text from offset ${where})`, cause);
  }
}

/** JSON whitespace (RFC 8259 section 2). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Offset of the quote that closes a JSON string opening before `from` in `text`, or -1 when none does. */
function closingQuote(text: string, from: number, backslashesBefore: number): number {
  for (let end = text.indexOf('"', from); end >= 0; end = text.indexOf('"', end + 1)) {
    let backslashes = 0;
    let j = end - 1;
    for (; j >= 0 && text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (j < 0) backslashes += backslashesBefore;
    if (backslashes % 2 === 0) return end;
  }
  return -1;
}

/** Backslashes ending `text`, added to `before` when the whole text is backslashes. */
function trailingBackslashes(text: string, before: number): number {
  let j = text.length - 1;
  while (j >= 0 && text.charCodeAt(j) === BACKSLASH) j--;
  return j < 0 ? before + text.length : text.length - 1 - j;
}

/** `"name"` and the colon before a member's value. */
const MEMBER_NAME = /^[ \t\n\r]*("(?:[^"\\]|\\.)*")[ \t\n\r]*:[ \t\n\r]*$/s;

/**
 * RFC 8259 JSON text read as a push parser: {@link push} takes the text in pieces cut anywhere,
 * {@link end} says it is all there, and {@link events} fills with what can be handed on. A container
 * longer than `piece` characters is handed on member by member, each member parsed by `JSON.parse`
 * once its text is whole (a container within a piece is one member); a text with no such container
 * at its top is parsed whole at its end. The reader holds only the text not yet handed on: the member
 * being read, and the text before it in the pieces it started in.
 *
 * What is handed on depends on the text alone, not on where it was cut: pieces cut at any offset
 * give the same events and the same error.
 *
 * Refuses nesting deeper than `maxDepth` (objects and arrays alike), brackets that do not pair, an
 * unterminated string and an object that names one member twice (RFC 8259 section 4 leaves its
 * meaning open, while RFC 7951 data names each node once). Escaped names are compared decoded
 * (`"a"` and `"\u0061"` are one name).
 */
export class JsonReader {
  /** What has been read and not yet taken (taken from {@link head} on). */
  readonly events: JsonEvent[] = [];
  /** Index of the first event not yet taken. */
  head = 0;

  /**
   * Every open container, outermost first: the offset of its bracket, and an object's names: up to
   * {@link SMALL_OBJECT} names without escapes as where their text stands (start and end of each),
   * else a Set of the names (a streamed object's, whose text is dropped as it is handed on).
   */
  private readonly starts: number[] = [];
  private readonly names: (number[] | Set<string> | undefined)[] = [];
  /**
   * How many open containers, outermost first, are handed on member by member (streamed); for each,
   * where its current member's text starts and whether that member was a streamed container (after
   * which only blanks may come before a comma or its end).
   */
  private streamed = 0;
  private readonly members: number[] = [];
  private readonly afterStreamed: boolean[] = [];
  /** The offset past which the outermost open container that is not streamed gets streamed. */
  private promoteAt = Number.POSITIVE_INFINITY;
  /** Whether the top value is not one container: nothing is streamed, the text is parsed at its end. */
  private whole = false;
  /** Whether a value has begun at the top (a second one makes the text whole: JSON.parse refuses it). */
  private topRead = false;
  /** The offset of the bracket that closed a streamed top container. */
  private topEnd = -1;
  /** Whether a member name comes next in the innermost open object. */
  private nameNext = false;

  /** The text held: from offset `heldFrom` to the start of the current piece, then the piece. */
  private held = '';
  private heldFrom = 0;
  private piece = '';
  private pieceAt = 0;
  /** An unterminated string: the offset of its quote (-1: none), whether it is a name, the backslashes ending it. */
  private stringAt = -1;
  private stringIsName = false;
  private backslashes = 0;
  /** The pieces read after the current one while a string runs past it, joined when it ends. */
  private waiting: string[] = [];

  constructor(
    private readonly maxDepth: number,
    /** Length past which a container is streamed. */
    private readonly longest: number,
  ) {}

  /** Characters read so far. */
  get length(): number {
    return this.pieceAt + this.piece.length;
  }

  /** Reads the next piece of the text. */
  push(piece: string): void {
    if (this.stringAt < 0) {
      this.scanPiece(piece, -1);
      return;
    }
    // Inside a string longer than a piece: only its end is looked for; the pieces wait until it is found.
    const end = closingQuote(piece, 0, this.backslashes);
    if (end < 0) {
      this.backslashes = trailingBackslashes(piece, this.backslashes);
      this.waiting.push(piece);
      return;
    }
    const before = this.waiting.join('');
    this.waiting = [];
    this.scanPiece(before + piece, before.length + end);
  }

  /** Ends the text: checks it is whole, and hands on the value of a text not streamed. */
  end(): void {
    if (this.stringAt >= 0) throw malformed(`unterminated string at offset ${this.stringAt}`);
    const open = this.starts.length;
    if (open > 0) throw malformed(`unexpected end of input: ${open} unclosed brackets`);
    if (this.topEnd < 0) this.events.push({ kind: 'value', value: parse(this.text(0, this.length), 0) });
  }

  /** Scans the next piece; `stringEnd`: where in it the string open before it ends. */
  private scanPiece(piece: string, stringEnd: number): void {
    // The text before this piece joins the held text.
    if (this.piece.length > 0) this.held += this.piece;
    this.pieceAt += this.piece.length;
    this.piece = piece;
    const at = this.pieceAt;
    let i = 0;
    if (stringEnd >= 0) {
      this.stringEnded(at + stringEnd);
      i = stringEnd + 1;
    }
    let top = this.starts.length === 0;
    for (; i < piece.length; i++) {
      if (!top) {
        // Inside a container only `"` `,` `[` `]` `{` `}` matter: the next one is found by a regular
        // expression, which skips the blanks, numbers and literals between them several times faster
        // than a loop over each character (`test` makes no match object).
        MARKUP.lastIndex = i;
        if (!MARKUP.test(piece)) break;
        i = MARKUP.lastIndex - 1;
      }
      const c = piece.charCodeAt(i);
      // Most characters are none of `"` `,` `[` `]` `{` `}` (the brackets differ from each other by 0x20).
      if (c !== QUOTE && c !== COMMA && (c & 0xdf) !== OPEN_ARRAY && (c & 0xdf) !== CLOSE_ARRAY) {
        if (top) this.topLevel(c);
        continue;
      }
      if (at + i > this.promoteAt) this.promote(at + i);
      if (top && !this.topLevel(c)) continue;
      switch (c) {
        case QUOTE: {
          const end = closingQuote(piece, i + 1, 0);
          this.stringAt = at + i;
          this.stringIsName = this.nameNext;
          if (end < 0) {
            // Its end is looked for in the next pieces (see push).
            this.backslashes = trailingBackslashes(piece.slice(i + 1), 0);
            this.drop();
            return;
          }
          this.stringEnded(at + end);
          i = end;
          break;
        }
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.open(c === OPEN_OBJECT, at + i);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.close(c, at + i);
          break;
        case COMMA: {
          const depth = this.starts.length;
          this.nameNext = this.names[depth - 1] !== undefined;
          if (this.streamed === depth) {
            this.handMember(depth - 1, at + i, false);
            this.members[depth - 1] = at + i + 1;
          }
          break;
        }
        default:
          break;
      }
      top = this.starts.length === 0;
    }
    this.drop();
  }

  /** A character outside every container: whether it is read as usual (a bracket or a string). */
  private topLevel(c: number): boolean {
    if (isSpace(c)) return false;
    if (this.topEnd >= 0) throw malformed(`unexpected text after offset ${this.topEnd}`);
    if (this.topRead || (c !== OPEN_OBJECT && c !== OPEN_ARRAY)) {
      // A scalar, or more than one value: the text is parsed whole, and JSON.parse says what is wrong.
      this.whole = true;
      this.promoteAt = Number.POSITIVE_INFINITY;
    }
    this.topRead = true;
    return c === QUOTE || c === OPEN_OBJECT || c === OPEN_ARRAY || c === CLOSE_ARRAY || c === CLOSE_OBJECT;
  }

  private open(object: boolean, at: number): void {
    const depth = this.starts.length;
    if (depth >= this.maxDepth) {
      throw new CodecError('LIMIT_EXCEEDED', `JSON input nests deeper than ${this.maxDepth} levels`, {
        errorTag: 'malformed-message',
      });
    }
    this.starts.push(at);
    this.names.push(object ? [] : undefined);
    this.nameNext = object;
    if (this.streamed === depth && !this.whole) this.promoteAt = at + this.longest;
  }

  private close(c: number, at: number): void {
    const depth = this.starts.length;
    if (depth === 0) throw malformed(`unexpected "${String.fromCharCode(c)}" at offset ${at}`);
    this.nameNext = false;
    if (this.streamed < depth) {
      this.starts.pop();
      this.names.pop();
      if (this.streamed === depth - 1) this.promoteAt = Number.POSITIVE_INFINITY;
      return;
    }
    const k = depth - 1;
    const object = this.names[k] !== undefined;
    if (c !== (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
      throw malformed(
        `"${object ? '{' : '['}" at offset ${this.starts[k]} is closed by "${String.fromCharCode(c)}"`,
      );
    }
    this.handMember(k, at, true);
    this.events.push(CLOSE);
    this.starts.pop();
    this.names.pop();
    this.members.pop();
    this.afterStreamed.pop();
    this.streamed--;
    if (k === 0) this.topEnd = at;
    else {
      this.members[k - 1] = at + 1;
      this.afterStreamed[k - 1] = true;
    }
  }

  /** Streams every open container that has grown longer than a piece at offset `at`, outermost first. */
  private promote(at: number): void {
    const depth = this.starts.length;
    while (this.streamed < depth && at - this.starts[this.streamed]! > this.longest) {
      const k = this.streamed++;
      const start = this.starts[k]!;
      const names = this.names[k];
      const array = names === undefined;
      if (Array.isArray(names)) this.names[k] = this.nameSet(names);
      this.events.push({ kind: 'open', name: k === 0 ? undefined : this.memberName(k - 1, start), array });
      // Its members so far, each whole (none is longer than a piece, or it would be streamed first).
      const to = k + 1 < depth ? this.starts[k + 1]! : at;
      this.members.push(start + 1);
      this.afterStreamed.push(false);
      for (const comma of topCommas(this.text(start + 1, to))) {
        this.handMember(k, start + 1 + comma, false);
        this.members[k] = start + 2 + comma;
      }
    }
    this.promoteAt =
      this.streamed < depth ? this.starts[this.streamed]! + this.longest : Number.POSITIVE_INFINITY;
  }

  /** The name before a streamed container opening at `start`, a member of the streamed container `k`. */
  private memberName(k: number, start: number): string | undefined {
    if (this.afterStreamed[k]) {
      // A second member with no comma after the streamed one.
      this.expectComma(this.members[k]!, start);
      throw malformed(`expected "," or the end at offset ${start}`);
    }
    const head = this.text(this.members[k]!, start);
    if (this.names[k] === undefined) {
      if (skipSpace(head, 0) !== head.length)
        throw malformed(`unexpected text before the value at offset ${start}`);
      return undefined;
    }
    const name = MEMBER_NAME.exec(head)?.[1];
    if (name === undefined) throw malformed(`unexpected text before the value at offset ${start}`);
    return parse(name, this.members[k]!) as string;
  }

  /** Refuses anything but blanks from `from` to `to`, after a streamed member. */
  private expectComma(from: number, to: number): void {
    const text = this.text(from, to);
    const after = skipSpace(text, 0);
    if (after !== text.length) throw malformed(`expected "," or the end at offset ${from + after}`);
  }

  /**
   * Hands on the member of the streamed container `k` that ends at offset `to` (a comma, or its
   * closing bracket when `closing`).
   */
  private handMember(k: number, to: number, closing: boolean): void {
    const from = this.members[k]!;
    if (this.afterStreamed[k]) {
      this.expectComma(from, to);
      this.afterStreamed[k] = false;
      return;
    }
    const text = this.text(from, to);
    if (skipSpace(text, 0) === text.length) {
      const first = from === this.starts[k]! + 1;
      if (first && closing) return; // an empty container
      throw malformed(
        first ? `unexpected "," at offset ${to}` : `a "," at offset ${from - 1} is not followed by a value`,
      );
    }
    if (this.names[k] === undefined) {
      this.events.push({ kind: 'member', name: undefined, value: parse(text, from) });
      return;
    }
    const member = parse(`{${text}}`, from) as Record<string, unknown>;
    for (const name in member) this.events.push({ kind: 'member', name, value: member[name] });
  }

  /** A string has ended at offset `end`: a member name is checked against the object's others. */
  private stringEnded(end: number): void {
    const quote = this.stringAt;
    this.stringAt = -1;
    if (!this.stringIsName) return;
    this.nameNext = false;
    const k = this.starts.length - 1;
    const start = quote + 1;
    const names = this.names[k]!;
    if (Array.isArray(names) && names.length < 2 * SMALL_OBJECT && !this.hasEscape(start, end)) {
      // Compared where they stand in the text: most names make no string.
      const length = end - start;
      for (let j = 0; j < names.length; j += 2) {
        if (names[j + 1]! - names[j]! === length && this.sameText(names[j]!, start, length)) {
          throw twice(this.text(start, end), quote);
        }
      }
      names.push(start, end);
      return;
    }
    const set = Array.isArray(names) ? this.nameSet(names) : names;
    this.names[k] = set;
    const raw = this.text(start, end);
    const name = raw.includes('\\') ? (parse(`"${raw}"`, quote) as string) : raw;
    if (set.has(name)) throw twice(name, quote);
    set.add(name);
  }

  /** The names whose text stands at `offsets` (start and end of each), as strings. */
  private nameSet(offsets: readonly number[]): Set<string> {
    const set = new Set<string>();
    for (let j = 0; j < offsets.length; j += 2) set.add(this.text(offsets[j]!, offsets[j + 1]!));
    return set;
  }

  /** The character at offset `at`, held. */
  private charAt(at: number): number {
    return at >= this.pieceAt
      ? this.piece.charCodeAt(at - this.pieceAt)
      : this.held.charCodeAt(at - this.heldFrom);
  }

  /** Whether the text from `start` to `end` holds a backslash. */
  private hasEscape(start: number, end: number): boolean {
    for (let at = start; at < end; at++) if (this.charAt(at) === BACKSLASH) return true;
    return false;
  }

  /** Whether the text from `a` and from `b` is the same for `length` characters. */
  private sameText(a: number, b: number, length: number): boolean {
    for (let k = 0; k < length; k++) if (this.charAt(a + k) !== this.charAt(b + k)) return false;
    return true;
  }

  /** Drops the text handed on: what comes before the current member of the innermost streamed container. */
  private drop(): void {
    if (this.streamed === 0 && this.topEnd < 0) return;
    const keep = this.streamed === 0 ? this.length : this.members[this.streamed - 1]!;
    if (keep >= this.pieceAt) {
      this.held = '';
      this.piece = this.piece.slice(keep - this.pieceAt);
      this.pieceAt = keep;
    } else if (keep > this.heldFrom) this.held = this.held.slice(keep - this.heldFrom);
    this.heldFrom = Math.min(keep, this.pieceAt);
  }

  /** The text from offset `from` to `to`, both held. */
  private text(from: number, to: number): string {
    if (from >= this.pieceAt) return this.piece.slice(from - this.pieceAt, to - this.pieceAt);
    if (to <= this.pieceAt) return this.held.slice(from - this.heldFrom, to - this.heldFrom);
    return this.held.slice(from - this.heldFrom) + this.piece.slice(0, to - this.pieceAt);
  }
}

function twice(name: string, quote: number): CodecError {
  return malformed(`member "${name}" appears twice in one object (offset ${quote})`);
}

/** Offsets of the commas of `text` outside strings and brackets (its members are whole). */
function* topCommas(text: string): Generator<number> {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i + 1, 0);
      if (i < 0) return;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COMMA && depth === 0) yield i;
  }
}
