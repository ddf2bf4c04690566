import { CodecError } from './errors';
import { jsonTextDepth } from './json-depth';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Offset of the quote that closes the JSON string opening at `start` (the text is valid JSON). */
function stringEnd(text: string, start: number): number {
  let end = start;
  for (;;) {
    end = text.indexOf('"', end + 1);
    let backslashes = 0;
    for (let j = end - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return end;
  }
}

/** Names of an object kept in a list up to this many; a larger object gets a Set. */
const SMALL_OBJECT = 16;

/** Adds `name` to an object's names; false when it was there already. */
function addName(names: string[] | Set<string>, name: string): boolean {
  if (Array.isArray(names)) {
    if (names.includes(name)) return false;
    names.push(name);
    return true;
  }
  if (names.has(name)) return false;
  names.add(name);
  return true;
}

/**
 * The first member name that appears twice in one object of `text` (valid JSON), and its offset:
 * one pass that jumps over strings, keeping the names of each open object (most objects are
 * small: a list searched in turn, a Set past {@link SMALL_OBJECT}). Escaped names are compared
 * decoded (`"a"` and `"\u0061"` are one name).
 */
function duplicateMember(text: string): { name: string; offset: number } | undefined {
  // One entry per open object (its names so far) or array (undefined).
  const open: (string[] | Set<string> | undefined)[] = [];
  let names: string[] | Set<string> | undefined;
  let nameNext = false;
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case QUOTE: {
        const end = stringEnd(text, i);
        if (nameNext && names !== undefined) {
          const raw = text.slice(i + 1, end);
          const name = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
          if (!addName(names, name)) return { name, offset: i };
          if (Array.isArray(names) && names.length > SMALL_OBJECT) names = new Set(names);
          nameNext = false;
        }
        i = end;
        break;
      }
      case OPEN_OBJECT:
        open.push(names);
        names = [];
        nameNext = true;
        break;
      case OPEN_ARRAY:
        open.push(names);
        names = undefined;
        nameNext = false;
        break;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        names = open.pop();
        nameNext = false;
        break;
      case COMMA:
        nameNext = names !== undefined;
        break;
      default:
        break;
    }
  }
  return undefined;
}

/**
 * Parses JSON text (RFC 8259) and refuses an object that names one member twice: RFC 8259
 * section 4 leaves the meaning of such an object open (`JSON.parse` keeps the last one), while
 * RFC 7951 data names each node once, so the earlier value would be dropped unseen.
 *
 * `maxDepth` bounds the nesting of objects and arrays, checked by a linear scan before
 * `JSON.parse`: parsing millions of nested brackets blocks the event loop for seconds before any
 * limit applied to the parsed value could.
 *
 * @throws {CodecError} `LIMIT_EXCEEDED` (malformed-message) for text nested deeper than `maxDepth`;
 *   `JSON_MALFORMED` (malformed-message) for text that is not JSON or holds a member name twice
 *   in one object
 */
export function parseJsonText(text: string, maxDepth?: number): unknown {
  if (maxDepth !== undefined && jsonTextDepth(text, maxDepth) > maxDepth) {
    throw new CodecError('LIMIT_EXCEEDED', `JSON input nests deeper than ${maxDepth} levels`, {
      errorTag: 'malformed-message',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new CodecError('JSON_MALFORMED', `malformed JSON: ${(cause as Error).message}`, {
      errorTag: 'malformed-message',
      cause,
    });
  }
  const duplicate = duplicateMember(text);
  if (duplicate !== undefined) {
    throw new CodecError(
      'JSON_MALFORMED',
      `malformed JSON: member "${duplicate.name}" appears twice in one object (offset ${duplicate.offset})`,
      { errorTag: 'malformed-message' },
    );
  }
  return value;
}
