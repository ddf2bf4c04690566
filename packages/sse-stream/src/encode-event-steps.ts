import { field, formatHead, hasLineBreak, LINE_BREAK } from './format-event.js';
import type { SseEvent } from './types.js';

/**
 * {@link encodeEvent} of an event whose data comes in pieces (an encoder's chunks, each made as it
 * is asked for), formatted and encoded a piece a step: a generator that yields between two pieces and
 * returns the event's UTF-8 bytes, the same bytes `encodeEvent` gives for the pieces joined. A big
 * event (megabytes of notification) is thus formatted in slices of work, not in one run over its
 * lines, and an event of one piece is one step. A line break split between two pieces (CR at the end
 * of one, LF at the start of the next) is one break, and a character split between two (a surrogate
 * pair) one character, as in the whole text.
 *
 * @throws {SseFormatError} as `encodeEvent`, from its first step.
 */
export function* encodeEventSteps(
  pieces: Iterable<string>,
  event: Omit<SseEvent, 'data'> = {},
): Generator<void, Uint8Array, void> {
  const lines = new DataLines();
  // Encoded to bytes once it reaches ENCODED_AT: a small event is one allocation, as with
  // `encodeEvent`, and a big one is never encoded in one run.
  let text = formatHead(event);
  const encoded: Buffer[] = [];
  let first = true;
  for (const piece of pieces) {
    // A step between two pieces: an event of one piece yields nothing.
    if (!first) yield;
    first = false;
    text += lines.format(piece);
    if (text.length < ENCODED_AT) continue;
    // A high surrogate at the end waits for the low one that starts the next piece.
    const cut = endsWithHighSurrogate(text) ? text.length - 1 : text.length;
    encoded.push(Buffer.from(text.slice(0, cut)));
    text = text.slice(cut);
  }
  text += lines.end();
  if (encoded.length === 0) return Buffer.from(text);
  encoded.push(Buffer.from(text));
  return Buffer.concat(encoded);
}

/** Characters of formatted text encoded to bytes at once (64 Ki: a codec chunk's size). */
const ENCODED_AT = 65_536;

function endsWithHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/**
 * The `data:` fields of a text given in pieces, as `formatEvent` writes them for the whole text:
 * each line `data: <line>`, an empty one `data:`.
 */
class DataLines {
  /** Whether the current line has text (its `data: ` written). */
  #open = false;
  /** The last piece ended with CR: an LF that starts the next one belongs to that break. */
  #afterCr = false;

  /** The fields of `piece`, all but the end of its last line, which the next piece may go on. */
  format(piece: string): string {
    if (piece === '') return '';
    let text = piece;
    if (this.#afterCr && text.startsWith('\n')) text = text.slice(1);
    this.#afterCr = text.endsWith('\r');
    // Most pieces (compact JSON) hold no line break: no split.
    if (!hasLineBreak(text)) return this.#more(text);
    const lines = text.split(LINE_BREAK);
    let out = this.#more(lines[0]!);
    for (let i = 1; i < lines.length; i++) out += this.#endLine() + this.#more(lines[i]!);
    return out;
  }

  /** The end of the last line and of the event (the blank line). */
  end(): string {
    return `${this.#endLine()}\n`;
  }

  /** `text` added to the current line. */
  #more(text: string): string {
    if (text === '') return '';
    const start = this.#open ? '' : 'data: ';
    this.#open = true;
    return start + text;
  }

  #endLine(): string {
    const end = this.#open ? '\n' : field('data', '');
    this.#open = false;
    return end;
  }
}
