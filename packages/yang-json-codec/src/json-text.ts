import { CodecError } from './errors';
import { finishSteps, type Steps } from './steps';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/**
 * Text given to one `JSON.parse` call at most (plus one value): a container longer than this is
 * built member by member from pieces of about this size, so that no single call holds the event
 * loop for long (`JSON.parse` of 15 MB takes a second on a busy machine).
 */
const PIECE = 32 * 1024;
/** Characters scanned between two yields. */
const SCAN_STEP = 64 * 1024;

function malformed(message: string, cause?: unknown): CodecError {
  return new CodecError('JSON_MALFORMED', `malformed JSON: ${message}`, {
    errorTag: 'malformed-message',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Offset of the quote that closes the JSON string opening at `start`, or -1 when none does. */
function stringEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end < 0) return -1;
    let backslashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

/** Names of an object kept in a list up to this many; a larger object gets a Set. */
const SMALL_OBJECT = 16;

/**
 * The names of one open object: up to {@link SMALL_OBJECT} names without escapes as the offsets of
 * their text (start and end of each, no string made), else a Set of the decoded names.
 */
type Names = number[] | Set<string>;

/** Whether the text from `start` to `end` holds a backslash. */
function hasEscape(text: string, start: number, end: number): boolean {
  for (let k = start; k < end; k++) if (text.charCodeAt(k) === BACKSLASH) return true;
  return false;
}

/** Whether the text from `a` and from `b` is the same for `length` characters. */
function sameText(text: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (text.charCodeAt(a + k) !== text.charCodeAt(b + k)) return false;
  return true;
}

/** The decoded name of the string that opens at `quote` and closes at `end`. */
function nameAt(text: string, quote: number, end: number): string {
  const raw = text.slice(quote + 1, end);
  return raw.includes('\\') ? (parse(text.slice(quote, end + 1), quote) as string) : raw;
}

/**
 * Adds the name whose string opens at `quote` and closes at `end` to an object's names; returns the
 * names (a Set once they are many or one is escaped), or undefined when the name was there already.
 */
function addName(text: string, names: Names, quote: number, end: number): Names | undefined {
  const start = quote + 1;
  if (Array.isArray(names) && names.length < 2 * SMALL_OBJECT && !hasEscape(text, start, end)) {
    const length = end - start;
    for (let k = 0; k < names.length; k += 2) {
      if (names[k + 1]! - names[k]! === length && sameText(text, names[k]!, start, length)) return undefined;
    }
    names.push(start, end);
    return names;
  }
  let set: Set<string>;
  if (Array.isArray(names)) {
    set = new Set();
    for (let k = 0; k < names.length; k += 2) set.add(text.slice(names[k]!, names[k + 1]!));
  } else set = names;
  const name = nameAt(text, quote, end);
  if (set.has(name)) return undefined;
  set.add(name);
  return set;
}

/** `JSON.parse` with its failure as the codec's error. */
function parse(text: string, where: number): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw malformed(`${(cause as Error).message} (in the text from offset ${where})`, cause);
  }
}

/** A member of a big container that is a big container itself. */
interface BigMember {
  /** Offset just past the comma before the member (or the opening bracket): where its name starts. */
  readonly member: number;
  /** Offset of the opening bracket of its value. */
  readonly start: number;
}

/** A container longer than a piece, as {@link scan} finds it. */
interface BigContainer {
  /** Offset of its closing bracket. */
  readonly end: number;
  /**
   * Offsets of commas between its members (not inside them), about a piece apart: where it is cut
   * into pieces for `JSON.parse`.
   */
  readonly cuts: readonly number[];
  /** Its members that are big containers themselves, in order. */
  readonly inner: readonly BigMember[];
}

const NONE: readonly never[] = [];

/**
 * One pass over the text, yielding every {@link SCAN_STEP} characters: refuses nesting deeper than
 * `maxDepth` (objects and arrays alike), brackets that do not pair, an unterminated string and an
 * object that names one member twice; returns the containers longer than `piece`, by the offset
 * of their opening bracket, with where {@link build} cuts them. Jumps over strings and keeps the
 * names of each open object (most objects are small: a list searched in turn, a Set past
 * {@link SMALL_OBJECT}). Escaped names are compared decoded (`"a"` and `"\u0061"` are one name).
 */
function* scan(text: string, maxDepth: number, piece: number): Steps<Map<number, BigContainer>> {
  const big = new Map<number, BigContainer>();
  // For each open container but the innermost (whose state is in the variables below): its offset,
  // the names of an object (undefined: an array), and what is known of its cuts and members.
  const opens: number[] = [];
  const open: (Names | undefined)[] = [];
  const openCuts: (number[] | undefined)[] = [];
  const openInner: (BigMember[] | undefined)[] = [];
  const openLastCut: number[] = [];
  const openMember: number[] = [];
  let names: Names | undefined;
  let nameNext = false;
  /** The innermost container's cuts so far, its big members, its last cut (or its start), its member's start. */
  let cuts: number[] | undefined;
  let inner: BigMember[] | undefined;
  let lastCut = 0;
  let member = 0;
  let nextYield = SCAN_STEP;
  for (let i = 0; i < text.length; i++) {
    if (i >= nextYield) {
      nextYield = i + SCAN_STEP;
      yield;
    }
    switch (text.charCodeAt(i)) {
      case QUOTE: {
        const end = stringEnd(text, i);
        if (end < 0) throw malformed(`unterminated string at offset ${i}`);
        if (nameNext && names !== undefined) {
          const added = addName(text, names, i, end);
          if (added === undefined) {
            throw malformed(`member "${nameAt(text, i, end)}" appears twice in one object (offset ${i})`);
          }
          names = added;
          nameNext = false;
        }
        i = end;
        break;
      }
      case OPEN_OBJECT:
      case OPEN_ARRAY: {
        if (opens.length >= maxDepth) {
          throw new CodecError('LIMIT_EXCEEDED', `JSON input nests deeper than ${maxDepth} levels`, {
            errorTag: 'malformed-message',
          });
        }
        opens.push(i);
        open.push(names);
        openCuts.push(cuts);
        openInner.push(inner);
        openLastCut.push(lastCut);
        openMember.push(member);
        const object = text.charCodeAt(i) === OPEN_OBJECT;
        names = object ? [] : undefined;
        nameNext = object;
        cuts = undefined;
        inner = undefined;
        lastCut = i;
        member = i + 1;
        break;
      }
      case CLOSE_OBJECT:
      case CLOSE_ARRAY: {
        const start = opens.pop();
        if (start === undefined) throw malformed(`unexpected "${text[i]}" at offset ${i}`);
        const isBig = i - start > piece;
        if (isBig) big.set(start, { end: i, cuts: cuts ?? NONE, inner: inner ?? NONE });
        names = open.pop();
        nameNext = false;
        cuts = openCuts.pop();
        inner = openInner.pop();
        lastCut = openLastCut.pop()!;
        member = openMember.pop()!;
        if (isBig) {
          (inner ??= []).push({ member, start });
          lastCut = i;
        }
        break;
      }
      case COMMA:
        nameNext = names !== undefined;
        member = i + 1;
        // Only a container longer than a piece gets a cut (it runs past this comma).
        if (i - lastCut >= piece) {
          (cuts ??= []).push(i);
          lastCut = i;
        }
        break;
      default:
        break;
    }
  }
  if (opens.length > 0) throw malformed(`unexpected end of input: ${opens.length} unclosed brackets`);
  return big;
}

/** JSON whitespace (RFC 8259 section 2). */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** `"name"` and the colon before a member's value, as the text from `from` to `to` holds them. */
const MEMBER_NAME = /^[ \t\n\r]*("(?:[^"\\]|\\.)*")[ \t\n\r]*:[ \t\n\r]*$/s;

/** Sets a member as `JSON.parse` does: `__proto__` is an own property like any other name. */
function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * An array longer than {@link PIECE} left unparsed by {@link parseJsonTextLazySteps}: its items are
 * parsed a piece at a time while they are read ({@link eachItem}), so that the items already read
 * can be dropped before the next piece is parsed; {@link toArray} parses them all.
 */
export class LazyJsonArray {
  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly big: Map<number, BigContainer>,
  ) {}

  /** Hands the items in order to `use`, parsing them a piece at a time; nested long arrays are lazy too. */
  *eachItem(use: (item: unknown) => Steps<void>): Steps<void> {
    yield* build(this.text, this.start, this.big, true, use);
  }

  /** The whole array, every item parsed (nothing nested left lazy). */
  *toArray(): Steps<unknown[]> {
    return (yield* build(this.text, this.start, this.big, false)) as unknown[];
  }
}

/**
 * Builds the container opening at `start` (one {@link scan} found longer than a piece): its members
 * are parsed by `JSON.parse` in runs cut at the commas the scan chose, and a member that is itself
 * such a container is built the same way, or with `lazy` left as a {@link LazyJsonArray} when it is
 * an array. Yields after each run. With `use`, the items of an array go to it as they are parsed
 * rather than into the returned array.
 */
function* build(
  text: string,
  start: number,
  big: Map<number, BigContainer>,
  lazy: boolean,
  use?: (item: unknown) => Steps<void>,
): Steps<unknown> {
  const { end, cuts, inner } = big.get(start)!;
  const object = text.charCodeAt(start) === OPEN_OBJECT;
  if (text.charCodeAt(end) !== (object ? CLOSE_OBJECT : CLOSE_ARRAY)) {
    throw malformed(`"${text[start]}" at offset ${start} is closed by "${text[end]}"`);
  }
  const out: unknown[] | Record<string, unknown> = object ? {} : [];
  /** Takes one item of an array: to `use`, or into `out`. */
  const item = function* (value: unknown): Steps<void> {
    if (use !== undefined) yield* use(value);
    else (out as unknown[]).push(value);
  };
  /** Parses the members from `from` to `to` (commas between them) and adds them to `out`. */
  const add = function* (from: number, to: number): Steps<void> {
    // Only the whole content of an empty container may be blank: elsewhere a comma lacks a member.
    if (skipSpace(text, from) >= to && (from !== start + 1 || to !== end)) {
      throw malformed(`a "," at offset ${from - 1} is not followed by a value`);
    }
    const members = parse(object ? `{${text.slice(from, to)}}` : `[${text.slice(from, to)}]`, from);
    if (Array.isArray(out)) for (const v of members as unknown[]) yield* item(v);
    else for (const [k, v] of Object.entries(members as Record<string, unknown>)) setMember(out, k, v);
  };
  let pieceStart = start + 1;
  /** Whether `pieceStart` follows a comma, so that a member must come. */
  let afterComma = false;
  let c = 0;
  /** The runs up to the cuts before `offset`. */
  const runsBefore = function* (offset: number): Steps<void> {
    for (; c < cuts.length && cuts[c]! < offset; c++) {
      yield* add(pieceStart, cuts[c]!);
      pieceStart = cuts[c]! + 1;
      afterComma = true;
      yield;
    }
  };
  for (const { member, start: i } of inner) {
    // A member too long for one piece: the members before it, then it on its own.
    yield* runsBefore(i);
    if (member > pieceStart) yield* add(pieceStart, member - 1);
    const head = text.slice(member, i);
    const name = object ? MEMBER_NAME.exec(head)?.[1] : undefined;
    if (object ? name === undefined : skipSpace(head, 0) !== head.length) {
      throw malformed(`unexpected text before the value at offset ${i}`);
    }
    const value =
      lazy && text.charCodeAt(i) === OPEN_ARRAY
        ? new LazyJsonArray(text, i, big)
        : yield* build(text, i, big, lazy);
    if (Array.isArray(out)) yield* item(value);
    else setMember(out, parse(name!, member) as string, value);
    const after = skipSpace(text, big.get(i)!.end + 1);
    if (after === end) return out;
    if (text.charCodeAt(after) !== COMMA) throw malformed(`expected "," or the end at offset ${after}`);
    pieceStart = after + 1;
    afterComma = true;
    while (c < cuts.length && cuts[c]! <= after) c++;
  }
  yield* runsBefore(end);
  if (pieceStart < end || afterComma) yield* add(pieceStart, end);
  return out;
}

/**
 * Parses JSON text (RFC 8259) and refuses an object that names one member twice: RFC 8259
 * section 4 leaves the meaning of such an object open (`JSON.parse` keeps the last one), while
 * RFC 7951 data names each node once, so the earlier value would be dropped unseen.
 *
 * `maxDepth` bounds the nesting of objects and arrays, checked by a linear scan before anything
 * is parsed: parsing millions of nested brackets blocks the event loop for seconds before any
 * limit applied to the parsed value could.
 *
 * @throws {CodecError} `LIMIT_EXCEEDED` (malformed-message) for text nested deeper than `maxDepth`;
 *   `JSON_MALFORMED` (malformed-message) for text that is not JSON or holds a member name twice
 *   in one object
 */
export function parseJsonText(text: string, maxDepth?: number): unknown {
  return finishSteps(parseJsonTextSteps(text, maxDepth));
}

/**
 * {@link parseJsonText} in steps (see {@link Steps}): the text is scanned in slices, and a long
 * container is parsed in pieces, so that no step takes long however big the text.
 */
export function parseJsonTextSteps(text: string, maxDepth = Number.POSITIVE_INFINITY): Steps<unknown> {
  return parseInPieces(text, maxDepth, PIECE);
}

/**
 * {@link parseJsonTextSteps} that leaves every array longer than a piece (below the top) as a
 * {@link LazyJsonArray}, to be parsed while it is read: a decoder that takes the items one by one
 * never holds the parsed value of the whole text beside what it makes of it.
 */
export function parseJsonTextLazySteps(text: string, maxDepth = Number.POSITIVE_INFINITY): Steps<unknown> {
  return parseInPieces(text, maxDepth, PIECE, true);
}

/** {@link parseJsonTextSteps} with pieces of `piece` characters (small ones in tests). */
export function* parseInPieces(text: string, maxDepth: number, piece: number, lazy = false): Steps<unknown> {
  const big = yield* scan(text, maxDepth, piece);
  const start = skipSpace(text, 0);
  const end = big.get(start)?.end;
  if (end === undefined) return parse(text, 0);
  if (skipSpace(text, end + 1) !== text.length) throw malformed(`unexpected text after offset ${end}`);
  return yield* build(text, start, big, lazy);
}
