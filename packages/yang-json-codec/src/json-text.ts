import { type JsonEvent, JsonReader } from './json-reader';
import { finishSteps, type Steps } from './steps';

/**
 * Length past which a container is handed on member by member rather than given whole to one
 * `JSON.parse` call: no single call holds the event loop for long (`JSON.parse` of 15 MB takes a
 * second on a busy machine), and no more than about this much text is held beside what was read.
 */
const PIECE = 32 * 1024;
/** Characters of a text given whole that are read between two yields. */
const SCAN_STEP = 64 * 1024;

/** JSON text in pieces, cut anywhere (a generator reading a file a block at a time, say). */
export type JsonTextPieces = Iterable<string>;

/** The events of a text read as they are asked for: a piece is read when no event is left. */
class JsonPull {
  private readonly reader: JsonReader;
  private readonly pieces: Iterator<string>;
  private ended = false;

  constructor(pieces: Iterator<string>, maxDepth: number, longest: number) {
    this.reader = new JsonReader(maxDepth, longest);
    this.pieces = pieces;
  }

  /** The next event, reading pieces (and yielding after each) until there is one. */
  *next(): Steps<JsonEvent> {
    const reader = this.reader;
    const events = reader.events;
    while (reader.head === events.length) {
      if (this.ended) throw new Error('JSON text read past its end');
      events.length = 0;
      reader.head = 0;
      this.read();
      yield;
    }
    return events[reader.head++]!;
  }

  /** Reads the rest of the text, which may hold only blanks. */
  *finish(): Steps<void> {
    while (!this.ended) {
      this.read();
      yield;
    }
  }

  private read(): void {
    const next = this.pieces.next();
    if (next.done === true) {
      this.ended = true;
      this.reader.end();
    } else this.reader.push(next.value);
  }
}

/**
 * A JSON object or array longer than a piece, read member by member as its text comes
 * ({@link readJsonSteps}): each member is handed on once, in order, and dropped unless kept by
 * whoever takes it. Its members must be taken before anything after it in the text is read.
 */
export class JsonStream {
  private read = false;

  constructor(
    private readonly pull: JsonPull,
    /** Whether it is an array (its members have no names). */
    readonly array: boolean,
    private readonly top: boolean,
  ) {}

  /**
   * Hands each member to `use` in order: its name (undefined in an array) and its value, parsed or a
   * {@link JsonStream} itself (which `use` may read; what it leaves unread is skipped). `use` returns
   * the steps of what it does with the member, or undefined when it is done.
   */
  *each(use: (name: string | undefined, value: unknown) => Steps<void> | undefined): Steps<void> {
    if (this.read) throw new Error('a JSON stream is read once');
    this.read = true;
    for (;;) {
      const event = yield* this.pull.next();
      if (event.kind === 'close') break;
      if (event.kind === 'value') throw new Error('a JSON stream ended with a whole value');
      const value = event.kind === 'open' ? new JsonStream(this.pull, event.array, false) : event.value;
      const steps = use(event.name, value);
      if (steps !== undefined) yield* steps;
      if (value instanceof JsonStream && !value.read) yield* value.each(() => undefined);
    }
    if (this.top) yield* this.pull.finish();
  }

  /** The whole value, every member parsed (nothing left streamed). */
  *toValue(): Steps<unknown[] | Record<string, unknown>> {
    const out: unknown[] | Record<string, unknown> = this.array ? [] : {};
    const add = (name: string | undefined, value: unknown): void => {
      if (Array.isArray(out)) out.push(value);
      // As JSON.parse sets it: "__proto__" is an own member like any other name.
      else Object.defineProperty(out, name!, { value, enumerable: true, writable: true, configurable: true });
    };
    yield* this.each((name, value) => {
      if (!(value instanceof JsonStream)) {
        add(name, value);
        return undefined;
      }
      return addedSteps(add, name, value);
    });
    return out;
  }
}

/** `value` parsed whole, then given to `add` with its name. */
function* addedSteps(
  add: (name: string | undefined, value: unknown) => void,
  name: string | undefined,
  value: JsonStream,
): Steps<void> {
  add(name, yield* value.toValue());
}

/** A text given whole, in pieces of {@link SCAN_STEP}. */
function* slices(text: string): Generator<string> {
  for (let i = 0; i < text.length; i += SCAN_STEP) yield text.slice(i, i + SCAN_STEP);
}

/**
 * Reads JSON text (RFC 8259), whole or in pieces: the value of a text whose top container is no
 * longer than `longest` characters, else that container as a {@link JsonStream}, read as its members
 * are taken. The checks of {@link parseJsonText} apply, pieces cut anywhere giving the same value and
 * the same error as the text whole.
 */
export function* readJsonSteps(
  text: string | JsonTextPieces,
  maxDepth = Number.POSITIVE_INFINITY,
  longest = PIECE,
): Steps<unknown> {
  const pieces = typeof text === 'string' ? slices(text) : text;
  const pull = new JsonPull(pieces[Symbol.iterator](), maxDepth, longest);
  const first = yield* pull.next();
  if (first.kind === 'value') return first.value;
  if (first.kind !== 'open') throw new Error('a JSON text begins with a value or a container');
  return new JsonStream(pull, first.array, true);
}

/**
 * Parses JSON text (RFC 8259) and refuses an object that names one member twice: RFC 8259
 * section 4 leaves the meaning of such an object open (`JSON.parse` keeps the last one), while
 * RFC 7951 data names each node once, so the earlier value would be dropped unseen.
 *
 * `maxDepth` bounds the nesting of objects and arrays, checked as the text is read, before the
 * containers holding it are parsed: parsing millions of nested brackets blocks the event loop for
 * seconds before any limit applied to the parsed value could.
 *
 * @throws {CodecError} `LIMIT_EXCEEDED` (malformed-message) for text nested deeper than `maxDepth`;
 *   `JSON_MALFORMED` (malformed-message) for text that is not JSON or holds a member name twice
 *   in one object
 */
export function parseJsonText(text: string, maxDepth?: number): unknown {
  return finishSteps(parseJsonTextSteps(text, maxDepth));
}

/**
 * {@link parseJsonText} in steps (see {@link Steps}): the text is read in slices, and a long
 * container is parsed member by member, so that no step takes long however big the text.
 */
export function* parseJsonTextSteps(
  text: string | JsonTextPieces,
  maxDepth = Number.POSITIVE_INFINITY,
  longest = PIECE,
): Steps<unknown> {
  const value = yield* readJsonSteps(text, maxDepth, longest);
  return value instanceof JsonStream ? yield* value.toValue() : value;
}
