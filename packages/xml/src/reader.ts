import { codePointName, firstNonXmlChar, isXmlChar } from './chars.js';
import type { XmlAttribute, XmlChild, XmlElement } from './element.js';
import { positionOf, XmlError, type XmlErrorCode, type XmlLimitName } from './errors.js';
import { DEFAULT_XML_LIMITS, type XmlLimits } from './limits.js';
import { NamespaceScope, XML_NAMESPACE, XMLNS_NAMESPACE } from './namespace-scope.js';

/**
 * What {@link XmlSink.open} decides for an element: `collect` keeps its whole subtree (handed
 * complete to `close`), `stream` hands its child elements to `open`/`close` one by one and its
 * text to `text`, `skip` reads its content (checking it all the same) without handing any of it on.
 */
export type XmlSinkDecision = 'collect' | 'stream' | 'skip';

/**
 * Receives elements while they are read, so that a large document never exists as a whole element
 * tree. Top-level elements go to `open` at depth 0. `close` is called for every element `open` was.
 * Errors thrown by the sink propagate out of {@link streamXml} unchanged. The same sink can be
 * given elements already read, with `streamXmlElements`.
 */
export interface XmlSink {
  /**
   * An element's start tag was read. `start` is the index of its `<`, `end` the index just past
   * the `>` (or `/>`) that ends the start tag (both -1 when no text is read).
   */
  open(element: XmlElement, depth: number, start: number, end: number): XmlSinkDecision;
  /** Character data of a streamed element (whitespace-only layout between child elements left out). */
  text(element: XmlElement, text: string): void;
  /**
   * The element ended. `contentEnd` is the index of the `<` of its end tag, or the end of the
   * start tag for an empty-element tag (-1 when no text is read).
   */
  close(element: XmlElement, contentEnd: number): void;
  /**
   * Work the last call left to be done in steps before the next element is handed on (the decode
   * of a collected element's content, say), taken once; undefined when there is none. The readers
   * in steps run it as their own steps, so a big collected element does not make one long step.
   */
  takeSteps?(): Generator<void, void, void> | undefined;
}

/**
 * Reads XML text into namespace-resolved elements: a document, or a fragment of several top-level
 * elements as NETCONF `<data>` content has them (none at all gives `[]`).
 *
 * One pass with an explicit stack (no recursion, so no input can exhaust the call stack). The text
 * must be well-formed XML 1.0 and namespace-well-formed; DOCTYPE (and with it every entity
 * declaration), processing instructions other than the XML declaration, references to entities
 * other than `lt`, `gt`, `amp`, `quot` and `apos`, characters outside XML 1.0 `Char`, unbound
 * prefixes and repeated attributes are refused, and {@link XmlLimits} bound the work.
 * Line ends are normalized to LF (XML 1.0 section 2.11), whitespace in attribute values to spaces
 * (section 3.3.3).
 *
 * @throws {XmlError} for anything refused, with its line and column; never anything else.
 */
export function readXml(text: string, limits: XmlLimits = {}): XmlElement[] {
  return finish(new Reader(text, limits, undefined, false).steps());
}

/**
 * Reads an XML document: like {@link readXml}, but the text must hold exactly one top-level element,
 * which is returned.
 *
 * @throws {XmlError} `XML_MALFORMED` when there is no element or more than one, else as {@link readXml}
 */
export function readXmlDocument(text: string, limits: XmlLimits = {}): XmlElement {
  return finish(readXmlDocumentSteps(text, limits));
}

/** {@link readXmlDocument} in steps (see {@link readXmlSteps}). */
export function* readXmlDocumentSteps(
  text: string,
  limits: XmlLimits = {},
): Generator<void, XmlElement, void> {
  return (yield* new Reader(text, limits, undefined, true).steps())[0]!;
}

/**
 * Text in pieces, read in order as if joined (a file read a block at a time, say): a piece may end
 * anywhere, inside a tag or a name; the reader keeps only the markup it has not read yet, so a
 * document read this way is never held whole. Positions (in errors and given to a sink) count from
 * the start of the first piece.
 */
export type XmlTextPieces = Iterable<string>;

/**
 * Reads XML text like {@link readXml} but hands it to `sink` element by element (top-level elements
 * included), keeping only what the sink asks to collect. The text may come in pieces
 * ({@link XmlTextPieces}): a document bigger than memory then streams through a sink that keeps little.
 */
export function streamXml(text: string | XmlTextPieces, sink: XmlSink, limits: XmlLimits = {}): void {
  finish(readerSteps(text, limits, sink));
}

/**
 * {@link readXml} in steps: the generator reads the text a slice at a time, yielding after every
 * few hundred pieces of markup (tags, comments, CDATA sections), and returns the elements. Run it to its end at once (as
 * `readXml` does) or give the event loop back between steps, so that a big document does not hold
 * a server's other requests for the whole read.
 */
export function readXmlSteps(text: string, limits: XmlLimits = {}): Generator<void, XmlElement[], void> {
  return new Reader(text, limits, undefined, false).steps();
}

/** {@link streamXml} in steps (see {@link readXmlSteps}), the text whole or in pieces. */
export function streamXmlSteps(
  text: string | XmlTextPieces,
  sink: XmlSink,
  limits: XmlLimits = {},
): Generator<void, XmlElement[], void> {
  return readerSteps(text, limits, sink);
}

/** The steps of a reader of `text`, one string or pieces. */
function readerSteps(
  text: string | XmlTextPieces,
  limits: XmlLimits,
  sink: XmlSink,
): Generator<void, XmlElement[], void> {
  if (typeof text === 'string') return new Reader(text, limits, sink, false).steps();
  if (typeof (text as Partial<XmlTextPieces> | null)?.[Symbol.iterator] !== 'function') {
    throw new XmlError('XML_MALFORMED', 'XML input must be a string, or pieces of one');
  }
  return new Reader('', limits, sink, false).pieceSteps(text);
}

/**
 * Pieces of markup (tags, comments, CDATA sections, with their text) read, or elements handed on
 * (`streamXmlElementsSteps`), between two yields.
 */
export const XML_STEP = 512;

/** Thrown inside a reader when the markup being read runs past the text so far (see `wholeMarkup`). */
const CUT = Symbol('cut');

/** Runs a reader's steps to their end. */
function finish<T>(steps: Generator<void, T, void>): T {
  let next = steps.next();
  while (next.done !== true) next = steps.next();
  return next.value;
}

/** How an open element's content is handled (see {@link XmlSinkDecision}). */
const COLLECT = 0;
const STREAM = 1;
const SKIP = 2;
type Mode = typeof COLLECT | typeof STREAM | typeof SKIP;

/** An element being read; `children` is filled while it is collected. */
interface OpenElement extends XmlElement {
  children: XmlChild[];
}

// Module constants rather than imports in the per-element code: an imported binding can cost a
// property read per use where modules are loaded by a transforming runner (vitest).
const DEFAULTS = DEFAULT_XML_LIMITS;
const EMPTY_SCOPE = NamespaceScope.EMPTY;
const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const NO_DECLARATIONS: ReadonlyMap<string, string> = new Map();
// Streamed and skipped elements keep no children; they share this (frozen) array.
const NO_CHILDREN = Object.freeze([]) as unknown as XmlChild[];

// Plain character data is taken as a slice; anything else goes through `decode`: references, CR
// (line-end normalization), `]` (of a "]]>", refused), TAB and LF in attribute values (normalized),
// and code units that are not an XML `Char` by themselves (refused; surrogates are fine in pairs).
// Every character of a document stands in a text run, an attribute value, a name, whitespace or a
// comment, CDATA section or XML declaration: the first two are checked here, names and whitespace
// by their grammar, the rest where they are read. So no separate pass over the whole text is needed.
// A short run is checked by a loop, a long one by a regular expression (which stops at the `<`
// ending a text run at the latest); each is the cheaper at its length.
const TEXT_SPECIAL = /[^\t\n\u0020-\u0025\u0027-\u003B\u003D-\u005C\u005E-\uD7FF\uE000-\uFFFD]/g;
const ATTRIBUTE_SPECIAL = /[^\u0020-\u0025\u0027-\u003B\u003D-\uD7FF\uE000-\uFFFD]/g;
const SHORT_RUN = 32;

/** Whether `text` from `from` to `to` is plain character data (of an attribute value or not). */
function isPlain(text: string, from: number, to: number, attribute: boolean): boolean {
  if (to - from > SHORT_RUN) {
    const special = attribute ? ATTRIBUTE_SPECIAL : TEXT_SPECIAL;
    special.lastIndex = from;
    return !special.test(text) || special.lastIndex > to;
  }
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 0x20) {
      if (attribute || (c !== 0x09 && c !== 0x0a)) return false;
    } else if (
      c === 0x26 ||
      c === 0x3c ||
      (c === 0x5d && !attribute) ||
      (c >= 0xd800 && (c <= 0xdfff || c >= 0xfffe))
    ) {
      return false;
    }
  }
  return true;
}

const TEXT_DECODE = /[&\r]|\]\]>/g;
const ATTRIBUTE_DECODE = /[&<\t\n\r]/g;
// XML 1.0 section 2.8, with the version, encoding and standalone pseudo-attributes in their order.
const XML_DECLARATION =
  /<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"1\.[0-9]+"|'1\.[0-9]+')(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*\?>/y;
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

// XML 1.0 (Fifth Edition) section 2.3 `NameStartChar` and `NameChar`, tested on UTF-16 code units
// (here, beside their only caller: called for every name character, they must cost no import).
// A supplementary character (U+10000 and above) is a surrogate pair: its high half is taken as a
// name start character and its low half as a name character; `isNonAsciiNameChar` checks the pair.

/** `NameStartChar`: letters, `_`, `:` and the non-ASCII ranges of section 2.3. */
function isNameStart(c: number): boolean {
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
  return (
    (c >= 0xc0 && c <= 0xd6) ||
    (c >= 0xd8 && c <= 0xf6) ||
    (c >= 0xf8 && c <= 0x2ff) ||
    (c >= 0x370 && c <= 0x37d) ||
    (c >= 0x37f && c <= 0x1fff) ||
    c === 0x200c ||
    c === 0x200d ||
    (c >= 0x2070 && c <= 0x218f) ||
    (c >= 0x2c00 && c <= 0x2fef) ||
    (c >= 0x3001 && c <= 0xd7ff) ||
    // High surrogates of U+10000..U+EFFFF.
    (c >= 0xd800 && c <= 0xdb7f) ||
    (c >= 0xf900 && c <= 0xfdcf) ||
    (c >= 0xfdf0 && c <= 0xfffd)
  );
}

/** `NameChar`: a name start character, digits, `-`, `.`, U+00B7 and the combining ranges. */
function isNameChar(c: number): boolean {
  if (c < 0x80) {
    return (
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x5f ||
      c === 0x3a ||
      c === 0x2d ||
      c === 0x2e
    );
  }
  return (
    isNameStart(c) ||
    c === 0xb7 ||
    (c >= 0x300 && c <= 0x36f) ||
    c === 0x203f ||
    c === 0x2040 ||
    // Low surrogates, the second half of a supplementary name character.
    (c >= 0xdc00 && c <= 0xdfff)
  );
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

class Reader {
  private readonly maxDepth: number;
  private readonly maxAttributes: number;
  private readonly maxElements: number;
  private readonly maxTextLength: number;
  private i = 0;
  /** Open elements, with their mode, whether a child element was seen, and their text length so far. */
  private readonly stack: OpenElement[] = [];
  private readonly modes: Mode[] = [];
  private readonly hasElements: boolean[] = [];
  private readonly textLengths: number[] = [];
  private readonly top: XmlElement[] = [];
  private elements = 0;
  /**
   * Whitespace-only text not yet known to be content: it is, unless a child element stands beside
   * it. Kept as a range (indentation allocates nothing) plus what came before a comment.
   */
  private pendingFrom = -1;
  private pendingTo = -1;
  private pendingBefore = '';
  /**
   * Since the last tag, character data with more than whitespace was read: whitespace after it
   * (beyond a comment or CDATA section) is part of the same text, not layout.
   */
  private inText = false;
  /** Attributes of the start tag being read, in arrays reused from tag to tag. */
  private readonly attrNames: string[] = [];
  private readonly attrValues: string[] = [];
  private readonly attrAt: number[] = [];
  private attrSeen: Set<string> | undefined;
  /** Index just past the reference {@link reference} decoded last. */
  private referenceEnd = 0;

  /**
   * The text not read yet, from the first piece of markup not read (read in pieces, the text read
   * before it is dropped as each piece is added); `offset` is where it starts in the whole text.
   */
  private text: string;
  private offset = 0;
  /** Whether `text` runs to the end of the document (no more pieces will come). */
  private final: boolean;
  /** Characters of the document so far (for `maxSize`). */
  private size: number;
  private readonly maxSize: number;
  /**
   * The line `text` starts on, and the characters of that line before it (the line and column of
   * an error count from the start of the whole text).
   */
  private line = 1;
  private column = 0;
  /** Whether the byte order mark and the XML declaration are behind. */
  private started = false;
  /** Pieces of markup read since the last yield. */
  private step = 0;

  constructor(
    text: string,
    limits: XmlLimits,
    private readonly sink: XmlSink | undefined,
    private readonly single: boolean,
  ) {
    if (typeof text !== 'string') throw new XmlError('XML_MALFORMED', 'XML input must be a string');
    this.text = text;
    this.final = true;
    this.size = text.length;
    this.maxSize = limits.maxSize ?? DEFAULTS.maxSize;
    this.maxDepth = limits.maxDepth ?? DEFAULTS.maxDepth;
    this.maxAttributes = limits.maxAttributes ?? DEFAULTS.maxAttributes;
    this.maxElements = limits.maxElements ?? DEFAULTS.maxElements;
    this.maxTextLength = limits.maxTextLength ?? DEFAULTS.maxTextLength;
    this.checkSize();
  }

  private checkSize(): void {
    if (this.size > this.maxSize) {
      const what = `XML text of ${this.final ? '' : 'at least '}${this.size} characters`;
      throw new XmlError('XML_LIMIT_EXCEEDED', `${what} is longer than the limit of ${this.maxSize}`, {
        limit: 'maxSize',
      });
    }
  }

  private fail(code: XmlErrorCode, reason: string, at: number, limit?: XmlLimitName): XmlError {
    // Characters outside `Char` are refused where they break the grammar; name them as such.
    if (code === 'XML_MALFORMED' && firstNonXmlChar(this.text.slice(at, at + 2)) === 0) {
      return this.fail('XML_INVALID_CHAR', `${codePointName(this.text, at)} is not an XML 1.0 character`, at);
    }
    const p = positionOf(this.text, at);
    const position =
      this.offset === 0
        ? p
        : {
            line: p.line + this.line - 1,
            column: p.line === 1 ? p.column + this.column : p.column,
            offset: p.offset + this.offset,
          };
    return new XmlError(code, reason, limit === undefined ? { position } : { position, limit });
  }

  /** Reads the whole text, yielding after every {@link XML_STEP} pieces of markup; returns the top elements. */
  *steps(): Generator<void, XmlElement[], void> {
    yield* this.read();
    return this.end();
  }

  /** {@link steps} of the text given in `pieces`: each is read as far as it completes the markup before it. */
  *pieceSteps(pieces: XmlTextPieces): Generator<void, XmlElement[], void> {
    this.final = false;
    for (const piece of pieces) {
      this.add(piece);
      yield* this.read();
    }
    this.final = true;
    yield* this.read();
    return this.end();
  }

  /** Adds `piece` to the text not read yet, dropping what was read. */
  private add(piece: string): void {
    if (typeof piece !== 'string') throw new XmlError('XML_MALFORMED', 'XML input must be a string');
    this.size += piece.length;
    this.checkSize();
    const read = this.i;
    if (read > 0) this.advancePosition(read);
    // Joined into one flat string: `+` would make a rope, which every character read then goes through.
    const rest = this.text.length - read;
    this.text = rest === 0 ? piece : [read === 0 ? this.text : this.text.slice(read), piece].join('');
    this.offset += read;
    this.i = 0;
  }

  /** Moves the line and column where `text` starts past its first `to` characters (about to be dropped). */
  private advancePosition(to: number): void {
    const text = this.text;
    // Line ends as `positionOf` counts them: LF, and a CR not followed by LF (`to` is at a `<`).
    let lines = 0;
    let lineStart = -1;
    for (let k = text.indexOf('\n'); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) {
      lines++;
      lineStart = k + 1;
    }
    for (let k = text.indexOf('\r'); k >= 0 && k < to; k = text.indexOf('\r', k + 1)) {
      if (text.charCodeAt(k + 1) === 0x0a) continue;
      lines++;
      if (k + 1 > lineStart) lineStart = k + 1;
    }
    const from = lines === 0 ? 0 : lineStart;
    const columns = positionOf(text.slice(from, to), to - from).column - 1;
    this.line += lines;
    this.column = lines === 0 ? this.column + columns : columns;
  }

  /**
   * Skips the byte order mark and the XML declaration; false when the text so far is too short
   * to tell where they end (read in pieces, more will come).
   */
  private start(): boolean {
    const text = this.text;
    const len = text.length;
    let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    // The XML declaration comes first (whitespace before it, as NETCONF framing may leave, is let pass).
    let j = i;
    while (isSpace(text.charCodeAt(j))) j++;
    if (!this.final && (j + 6 > len || (text.startsWith('<?xml', j) && text.indexOf('?>', j) < 0))) {
      return false;
    }
    if (text.startsWith('<?xml', j) && isSpace(text.charCodeAt(j + 5))) {
      XML_DECLARATION.lastIndex = j;
      if (!XML_DECLARATION.test(text)) throw this.fail('XML_MALFORMED', 'malformed XML declaration', j);
      i = XML_DECLARATION.lastIndex;
    }
    this.i = i;
    this.started = true;
    return true;
  }

  /**
   * Reads the text as far as it goes: to its end when it is final, else up to the last `<`, whose
   * markup may be cut (the markup before it is whole: a tag holds no `<`; a comment or a CDATA
   * section may, and is read only once its end is there too).
   */
  private *read(): Generator<void, void, void> {
    if (!this.started && !this.start()) return;
    const text = this.text;
    const len = text.length;
    const final = this.final;
    const last = final ? len : text.lastIndexOf('<');
    while (this.i < len) {
      const lt = text.indexOf('<', this.i);
      if (!final && (lt < 0 || lt >= last || this.isCut(lt))) return;
      const textEnd = lt < 0 ? len : lt;
      if (this.i < textEnd) this.characters(this.i, textEnd);
      if (lt < 0) break;
      this.i = lt;
      if (final) this.markup();
      else if (!this.wholeMarkup(lt)) return;
      const more = this.sink?.takeSteps?.();
      if (more !== undefined) yield* more;
      if (++this.step === XML_STEP) {
        this.step = 0;
        yield;
      }
    }
  }

  /**
   * Reads the markup at `lt` unless the text so far cuts it; false when it does (read nothing then).
   * Only an attribute value holding a `<`, which is refused in the end, can run past the last `<`:
   * what is refused, and where, depends on the text after it.
   */
  private wholeMarkup(lt: number): boolean {
    try {
      this.markup();
      return true;
    } catch (error) {
      if (error !== CUT) throw error;
      this.i = lt;
      this.elements--;
      return false;
    }
  }

  /** Whether the comment or CDATA section at `lt` ends beyond the text so far. */
  private isCut(lt: number): boolean {
    const text = this.text;
    if (text.charCodeAt(lt + 1) !== 0x21 /* ! */) return false;
    if (text.startsWith('<!--', lt)) return text.indexOf('-->', lt + 4) < 0;
    return text.startsWith('<![CDATA[', lt) && text.indexOf(']]>', lt + 9) < 0;
  }

  /** The end of the text: every element closed; returns the top-level elements. */
  private end(): XmlElement[] {
    const len = this.text.length;
    const open = this.stack.length;
    if (open > 0)
      throw this.fail('XML_MALFORMED', `element <${this.stack[open - 1]!.name}> is not closed`, len);
    if (this.single && this.top.length === 0)
      throw this.fail('XML_MALFORMED', 'no element in the document', len);
    return this.top;
  }

  /** Character data from `from` to `to` (a `<` or the end of the text). */
  private characters(from: number, to: number): void {
    const text = this.text;
    let j = from;
    while (j < to && isSpace(text.charCodeAt(j))) j++;
    const depth = this.stack.length;
    if (j === to) {
      if (this.inText) this.content(text.slice(from, to), from);
      else if (depth > 0) {
        if (this.pendingFrom >= 0) this.pendingBefore += text.slice(this.pendingFrom, this.pendingTo);
        this.pendingFrom = from;
        this.pendingTo = to;
      }
      return;
    }
    if (depth === 0) throw this.fail('XML_MALFORMED', 'text outside the document element', j);
    const plain = isPlain(text, j, to, false);
    if (plain && this.modes[depth - 1] === SKIP) {
      // Nothing to keep or hand on: only the length counts.
      this.content(this.takePending(), from, to - from);
    } else {
      const raw = text.slice(from, to);
      const value = plain ? raw : this.decode(raw, from, TEXT_DECODE, false);
      this.content(this.takePending() + value, from);
    }
    this.inText = true;
  }

  /** The pending whitespace, taken as content. */
  private takePending(): string {
    if (this.pendingFrom < 0 && this.pendingBefore === '') return '';
    const s =
      this.pendingFrom < 0
        ? this.pendingBefore
        : this.pendingBefore + this.text.slice(this.pendingFrom, this.pendingTo);
    this.dropPending();
    return s;
  }

  private dropPending(): void {
    this.pendingFrom = -1;
    this.pendingBefore = '';
  }

  private markup(): void {
    const text = this.text;
    const i = this.i;
    const c = text.charCodeAt(i + 1);
    if (c === 0x2f /* / */) {
      const d = this.stack.length - 1;
      // Whitespace that is the whole text of an element is its value; beside child elements, layout.
      if (d >= 0 && !this.hasElements[d]) {
        const s = this.takePending();
        if (s !== '') this.content(s, i);
      } else this.dropPending();
      this.inText = false;
      this.endTag();
      return;
    }
    if (c === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        this.comment(i);
        return;
      }
      if (text.startsWith('<![CDATA[', i)) {
        if (this.stack.length === 0)
          throw this.fail('XML_MALFORMED', 'CDATA section outside the document element', i);
        const end = text.indexOf(']]>', i + 9);
        if (end < 0) throw this.fail('XML_MALFORMED', 'unterminated CDATA section', i);
        this.checkChars(i + 9, end);
        let value = text.slice(i + 9, end);
        if (value.includes('\r')) value = value.replace(/\r\n?/g, '\n');
        this.content(this.takePending() + value, i);
        this.inText = true;
        this.i = end + 3;
        return;
      }
      if (/^<![A-Z]/.test(text.slice(i, i + 3))) {
        throw this.fail('XML_FORBIDDEN', 'DOCTYPE and markup declarations are not allowed', i);
      }
      throw this.fail('XML_MALFORMED', 'expected a comment or a CDATA section after "<!"', i);
    }
    if (c === 0x3f /* ? */) {
      throw this.fail('XML_FORBIDDEN', 'processing instructions are not allowed', i);
    }
    this.dropPending();
    this.inText = false;
    this.startTag();
  }

  private comment(i: number): void {
    const text = this.text;
    const end = text.indexOf('-->', i + 4);
    if (end < 0) throw this.fail('XML_MALFORMED', 'unterminated comment', i);
    // XML 1.0 section 2.5: "--" may not occur in a comment, nor may it end with "-".
    const dashes = text.indexOf('--', i + 4);
    if (dashes < end || (end > i + 4 && text.charCodeAt(end - 1) === 0x2d)) {
      throw this.fail('XML_MALFORMED', '"--" inside a comment', dashes < end ? dashes : end - 1);
    }
    this.checkChars(i + 4, end);
    // Whitespace on both sides of a comment is one run: keep what came before it.
    if (this.pendingFrom >= 0) {
      this.pendingBefore += text.slice(this.pendingFrom, this.pendingTo);
      this.pendingFrom = -1;
    }
    this.i = end + 3;
  }

  /** Refuses a character outside XML 1.0 `Char` between `from` and `to`. */
  private checkChars(from: number, to: number): void {
    const bad = firstNonXmlChar(this.text.slice(from, to));
    if (bad >= 0) {
      throw this.fail(
        'XML_INVALID_CHAR',
        `${codePointName(this.text, from + bad)} is not an XML 1.0 character`,
        from + bad,
      );
    }
  }

  private name(what: string): string {
    const text = this.text;
    const start = this.i;
    const c0 = text.charCodeAt(start);
    if (!isNameStart(c0) || (c0 >= 0xd800 && c0 <= 0xdbff && !this.isNonAsciiNameChar(start))) {
      throw this.fail('XML_MALFORMED', `expected ${what}`, start);
    }
    let j = start + 1;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c < 0x80 ? !isNameChar(c) : !this.isNonAsciiNameChar(j)) break;
      j++;
    }
    this.i = j;
    return text.slice(start, j);
  }

  /** A non-ASCII name character at `j`: a surrogate only as half of a pair. */
  private isNonAsciiNameChar(j: number): boolean {
    const c = this.text.charCodeAt(j);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = this.text.charCodeAt(j + 1);
      return c <= 0xdb7f && d >= 0xdc00 && d <= 0xdfff;
    }
    if (c >= 0xdc00 && c <= 0xdfff) {
      const b = this.text.charCodeAt(j - 1);
      return b >= 0xd800 && b <= 0xdb7f;
    }
    return isNameChar(c);
  }

  private skipSpace(): boolean {
    const text = this.text;
    const start = this.i;
    while (isSpace(text.charCodeAt(this.i))) this.i++;
    return this.i > start;
  }

  private startTag(): void {
    const text = this.text;
    const start = this.i;
    const depth = this.stack.length;
    if (++this.elements > this.maxElements) {
      throw this.fail('XML_LIMIT_EXCEEDED', `more than ${this.maxElements} elements`, start, 'maxElements');
    }
    if (depth >= this.maxDepth) {
      throw this.fail(
        'XML_LIMIT_EXCEEDED',
        `elements nested deeper than ${this.maxDepth}`,
        start,
        'maxDepth',
      );
    }
    if (this.single && depth === 0 && this.top.length > 0) {
      throw this.fail('XML_MALFORMED', 'a second element at the top of the document', start);
    }
    this.i++;
    const name = this.name('an element name');
    const count = this.attributes(name, start);
    const selfClosing = text.charCodeAt(this.i) === 0x2f;
    this.i += selfClosing ? 2 : 1;
    const end = this.i;

    const parentScope = depth === 0 ? EMPTY_SCOPE : this.stack[depth - 1]!.scope;
    const declarations = count === 0 ? NO_DECLARATIONS : this.declarations(count);
    const scope =
      declarations === NO_DECLARATIONS ? parentScope : new NamespaceScope(parentScope, declarations);
    const colon = this.qualifiedName(name, start + 1);
    const prefix = colon < 0 ? '' : name.slice(0, colon);
    const local = colon < 0 ? name : name.slice(colon + 1);
    let ns: string;
    if (colon < 0) ns = scope.lookup('') ?? '';
    else {
      if (prefix === 'xmlns')
        throw this.fail('XML_UNBOUND_PREFIX', 'the prefix "xmlns" is reserved', start + 1);
      ns = this.resolve(scope, prefix, start + 1);
    }
    const attributes = count === 0 ? NO_ATTRIBUTES : this.resolveAttributes(count, scope);
    const element: OpenElement = {
      name,
      prefix,
      local,
      ns,
      attributes,
      declarations,
      scope,
      children: NO_CHILDREN,
    };

    const parentMode = depth === 0 ? (this.sink === undefined ? COLLECT : STREAM) : this.modes[depth - 1]!;
    let mode: Mode = parentMode;
    if (parentMode === STREAM) {
      const decision = this.sink!.open(element, depth, start + this.offset, end + this.offset);
      mode = decision === 'stream' ? STREAM : decision === 'collect' ? COLLECT : SKIP;
    }
    if (mode === COLLECT) element.children = [];
    if (depth > 0) this.hasElements[depth - 1] = true;
    if (selfClosing) this.finish(element, end);
    else {
      this.stack.push(element);
      this.modes.push(mode);
      this.hasElements.push(false);
      this.textLengths.push(0);
    }
  }

  /** Reads the attributes of a start tag into the scratch arrays; returns how many. */
  private attributes(tag: string, start: number): number {
    const text = this.text;
    let count = 0;
    for (;;) {
      const spaced = this.skipSpace();
      const c = text.charCodeAt(this.i);
      if (c === 0x3e /* > */) return count;
      if (c === 0x2f /* / */ && text.charCodeAt(this.i + 1) === 0x3e) return count;
      if (Number.isNaN(c)) throw this.fail('XML_MALFORMED', `unterminated start tag <${tag}>`, start);
      if (!spaced) throw this.fail('XML_MALFORMED', `expected whitespace, ">" or "/>" in <${tag}>`, this.i);
      const at = this.i;
      const name = this.name('an attribute name');
      this.skipSpace();
      if (text.charCodeAt(this.i) !== 0x3d /* = */) {
        throw this.fail('XML_MALFORMED', `attribute "${name}" has no value`, this.i);
      }
      this.i++;
      this.skipSpace();
      const q = text.charCodeAt(this.i);
      if (q !== 0x22 && q !== 0x27)
        throw this.fail('XML_MALFORMED', `value of attribute "${name}" is not quoted`, this.i);
      const end = text.indexOf(q === 0x22 ? '"' : "'", this.i + 1);
      if (end < 0) {
        if (!this.final) throw CUT;
        throw this.fail('XML_MALFORMED', `unterminated value of attribute "${name}"`, this.i);
      }
      if (count >= this.maxAttributes) {
        throw this.fail(
          'XML_LIMIT_EXCEEDED',
          `more than ${this.maxAttributes} attributes in <${tag}>`,
          at,
          'maxAttributes',
        );
      }
      if (this.isRepeated(name, count))
        throw this.fail('XML_MALFORMED', `attribute "${name}" is repeated`, at);
      const raw = text.slice(this.i + 1, end);
      if (raw.length > this.maxTextLength) {
        throw this.fail(
          'XML_LIMIT_EXCEEDED',
          `value of attribute "${name}" longer than ${this.maxTextLength}`,
          at,
          'maxTextLength',
        );
      }
      this.attrNames[count] = name;
      this.attrValues[count] = isPlain(text, this.i + 1, end, true)
        ? raw
        : this.decode(raw, this.i + 1, ATTRIBUTE_DECODE, true);
      this.attrAt[count] = at;
      count++;
      this.i = end + 1;
    }
  }

  private isRepeated(name: string, count: number): boolean {
    // Real elements have a handful of attributes: a linear scan, and a set only for long lists, so
    // that a tag with thousands of attributes (when maxAttributes allows it) costs no quadratic time.
    if (count < 16) {
      for (let k = 0; k < count; k++) if (this.attrNames[k] === name) return true;
      return false;
    }
    if (count === 16) this.attrSeen = new Set(this.attrNames.slice(0, 16));
    if (this.attrSeen!.has(name)) return true;
    this.attrSeen!.add(name);
    return false;
  }

  /** The namespace declarations among the attributes (Namespaces in XML 1.0 section 3). */
  private declarations(count: number): ReadonlyMap<string, string> {
    let declared: Map<string, string> | undefined;
    for (let k = 0; k < count; k++) {
      const name = this.attrNames[k]!;
      if (!name.startsWith('xmlns')) continue;
      const at = this.attrAt[k]!;
      const uri = this.attrValues[k]!;
      let prefix = '';
      if (name.length > 5) {
        if (name.charCodeAt(5) !== 0x3a /* : */) continue;
        prefix = name.slice(6);
        if (!isNameStart(prefix.charCodeAt(0)) || prefix.includes(':')) {
          throw this.fail('XML_MALFORMED', `"${name}" is not a namespace declaration`, at);
        }
        if (uri === '')
          throw this.fail('XML_UNBOUND_PREFIX', `the prefix "${prefix}" may not be undeclared`, at);
        if (prefix === 'xmlns')
          throw this.fail('XML_UNBOUND_PREFIX', 'the prefix "xmlns" may not be declared', at);
      }
      if ((prefix === 'xml') !== (uri === XML_NAMESPACE) || uri === XMLNS_NAMESPACE) {
        throw this.fail('XML_UNBOUND_PREFIX', `the prefix "${prefix}" may not be bound to "${uri}"`, at);
      }
      (declared ??= new Map()).set(prefix, uri);
    }
    return declared ?? NO_DECLARATIONS;
  }

  private resolveAttributes(count: number, scope: NamespaceScope): readonly XmlAttribute[] {
    let attributes: XmlAttribute[] | undefined;
    let firstPrefixed: XmlAttribute | undefined;
    let expanded: Set<string> | undefined;
    for (let k = 0; k < count; k++) {
      const name = this.attrNames[k]!;
      if (name.startsWith('xmlns') && (name.length === 5 || name.charCodeAt(5) === 0x3a)) continue;
      const at = this.attrAt[k]!;
      const value = this.attrValues[k]!;
      const colon = this.qualifiedName(name, at);
      if (colon < 0) {
        (attributes ??= []).push({ name, prefix: '', local: name, ns: '', value });
        continue;
      }
      const prefix = name.slice(0, colon);
      const local = name.slice(colon + 1);
      const ns = this.resolve(scope, prefix, at);
      const attribute: XmlAttribute = { name, prefix, local, ns, value };
      // Namespaces in XML 1.0 section 6.3: no two attributes with the same expanded name (a set
      // only from the second prefixed attribute on: most elements have one at most).
      if (firstPrefixed === undefined) firstPrefixed = attribute;
      else {
        expanded ??= new Set([`${firstPrefixed.ns} ${firstPrefixed.local}`]);
        const key = `${ns} ${local}`;
        if (expanded.has(key)) throw this.fail('XML_MALFORMED', `attribute {${ns}}${local} is repeated`, at);
        expanded.add(key);
      }
      (attributes ??= []).push(attribute);
    }
    return attributes ?? NO_ATTRIBUTES;
  }

  /** Index of the colon of a qualified name (-1 for none); refuses names with an empty part or two colons. */
  private qualifiedName(name: string, at: number): number {
    const colon = name.indexOf(':');
    if (
      colon >= 0 &&
      (colon === 0 ||
        colon === name.length - 1 ||
        name.indexOf(':', colon + 1) >= 0 ||
        !isNameStart(name.charCodeAt(colon + 1)))
    ) {
      throw this.fail('XML_MALFORMED', `"${name}" is not a qualified name`, at);
    }
    return colon;
  }

  private resolve(scope: NamespaceScope, prefix: string, at: number): string {
    const ns = scope.lookup(prefix);
    if (ns === undefined) throw this.fail('XML_UNBOUND_PREFIX', `the prefix "${prefix}" is not declared`, at);
    return ns;
  }

  private endTag(): void {
    const text = this.text;
    const start = this.i;
    const d = this.stack.length - 1;
    const element = this.stack[d];
    const name = element?.name ?? '';
    const after = start + 2 + name.length;
    if (element === undefined || !this.isAt(name, start + 2) || isNameChar(text.charCodeAt(after))) {
      this.i = start + 2;
      const found = this.name('an element name');
      throw this.fail(
        'XML_MALFORMED',
        element === undefined
          ? `end tag </${found}> without a start tag`
          : `expected </${name}>, found </${found}>`,
        start,
      );
    }
    this.i = after;
    this.skipSpace();
    if (text.charCodeAt(this.i) !== 0x3e)
      throw this.fail('XML_MALFORMED', `unterminated end tag </${name}>`, start);
    this.i++;
    this.stack.pop();
    this.modes.pop();
    this.hasElements.pop();
    this.textLengths.pop();
    this.finish(element, start);
  }

  /** Whether `s` stands in the text at `at` (a loop: much cheaper than `startsWith` for a short name). */
  private isAt(s: string, at: number): boolean {
    const text = this.text;
    for (let k = 0; k < s.length; k++) if (text.charCodeAt(at + k) !== s.charCodeAt(k)) return false;
    return true;
  }

  /** An element ended: it goes to its parent's children, the sink, or the top-level list. */
  private finish(element: XmlElement, contentEnd: number): void {
    const d = this.stack.length - 1;
    const parentMode = d < 0 ? (this.sink === undefined ? COLLECT : STREAM) : this.modes[d]!;
    if (parentMode === STREAM) this.sink!.close(element, contentEnd + this.offset);
    else if (parentMode === COLLECT) {
      if (d < 0) this.top.push(element);
      else this.stack[d]!.children.push(element);
    }
  }

  /**
   * Character data of the innermost open element; `at` is where it starts (for errors). `skipped`
   * counts characters of a skipped element that were not even sliced.
   */
  private content(value: string, at: number, skipped = 0): void {
    const d = this.stack.length - 1;
    const length = (this.textLengths[d] = this.textLengths[d]! + value.length + skipped);
    if (length > this.maxTextLength) {
      throw this.fail(
        'XML_LIMIT_EXCEEDED',
        `text of <${this.stack[d]!.name}> longer than ${this.maxTextLength}`,
        at,
        'maxTextLength',
      );
    }
    const mode = this.modes[d];
    if (mode === COLLECT) {
      // Adjacent text and CDATA pieces are one text node to a reader.
      const children = this.stack[d]!.children;
      const last = children.length - 1;
      if (last >= 0 && typeof children[last] === 'string') children[last] += value;
      else children.push(value);
    } else if (mode === STREAM) this.sink!.text(this.stack[d]!, value);
  }

  /**
   * Decodes references in `raw` (the text at `base`), normalizes line ends, and in attribute values
   * turns whitespace into spaces; refuses `]]>` in text and `<` in attribute values.
   */
  private decode(raw: string, base: number, special: RegExp, attribute: boolean): string {
    const bad = firstNonXmlChar(raw);
    if (bad >= 0)
      throw this.fail(
        'XML_INVALID_CHAR',
        `${codePointName(raw, bad)} is not an XML 1.0 character`,
        base + bad,
      );
    let out = '';
    let last = 0;
    special.lastIndex = 0;
    for (let m = special.exec(raw); m !== null; m = special.exec(raw)) {
      const k = m.index;
      const c = raw.charCodeAt(k);
      out += raw.slice(last, k);
      if (c === 0x26 /* & */) {
        out += this.reference(raw, k, base);
        last = this.referenceEnd;
      } else if (c === 0x0d) {
        // CR LF and a lone CR are one line end (section 2.11).
        out += attribute ? ' ' : '\n';
        last = raw.charCodeAt(k + 1) === 0x0a ? k + 2 : k + 1;
      } else if (c === 0x3c /* < */) {
        throw this.fail('XML_MALFORMED', '"<" in an attribute value', base + k);
      } else if (c === 0x5d /* ]]> */) {
        throw this.fail('XML_MALFORMED', '"]]>" in text', base + k);
      } else {
        out += ' ';
        last = k + 1;
      }
      special.lastIndex = last;
    }
    return out + raw.slice(last);
  }

  /** The value of the reference at `raw[k]` (an `&`); sets {@link referenceEnd}. */
  private reference(raw: string, k: number, base: number): string {
    let j = k + 1;
    if (raw.charCodeAt(j) === 0x23 /* # */) {
      j++;
      const hex = raw.charCodeAt(j) === 0x78; /* x */
      if (hex) j++;
      const from = j;
      for (;;) {
        const c = raw.charCodeAt(j);
        const digit =
          (c >= 0x30 && c <= 0x39) || (hex && ((c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)));
        if (!digit) break;
        j++;
      }
      if (j === from || raw.charCodeAt(j) !== 0x3b /* ; */) {
        throw this.fail('XML_MALFORMED', 'malformed character reference', base + k);
      }
      const code = Number.parseInt(raw.slice(from, j), hex ? 16 : 10);
      if (!isXmlChar(code)) {
        throw this.fail('XML_INVALID_CHAR', `"${raw.slice(k, j + 1)}" is not an XML 1.0 character`, base + k);
      }
      this.referenceEnd = j + 1;
      return String.fromCodePoint(code);
    }
    if (!isNameStart(raw.charCodeAt(j)))
      throw this.fail('XML_MALFORMED', '"&" not starting a reference', base + k);
    j++;
    while (isNameChar(raw.charCodeAt(j))) j++;
    if (raw.charCodeAt(j) !== 0x3b)
      throw this.fail('XML_MALFORMED', 'entity reference without ";"', base + k);
    const name = raw.slice(k + 1, j);
    const value = Object.hasOwn(PREDEFINED, name) ? PREDEFINED[name] : undefined;
    if (value === undefined) {
      throw this.fail('XML_FORBIDDEN', `reference to the undeclared entity "&${name};"`, base + k);
    }
    this.referenceEnd = j + 1;
    return value;
  }
}
