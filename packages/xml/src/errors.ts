/**
 * Stable codes of {@link XmlError}. Callers match on `code`, never on messages.
 *
 * | code | raised when |
 * |---|---|
 * | `XML_MALFORMED` | the text is not well-formed XML 1.0 (syntax, mismatched or unclosed tags, a repeated attribute, text outside the elements, not exactly one element where a document is read) |
 * | `XML_FORBIDDEN` | a DOCTYPE or other markup declaration, a processing instruction (the XML declaration aside), a reference to an entity other than the five predefined ones |
 * | `XML_INVALID_CHAR` | a character outside XML 1.0 `Char` (section 2.2), read or given to the writer, also as a character reference |
 * | `XML_UNBOUND_PREFIX` | a namespace prefix used without a declaration in scope, or a declaration Namespaces in XML 1.0 forbids (`xmlns:p=""`, rebinding `xml` or `xmlns`) |
 * | `XML_LIMIT_EXCEEDED` | input beyond one of the {@link XmlLimits} (`limit` names which) |
 */
export type XmlErrorCode =
  | 'XML_MALFORMED'
  | 'XML_FORBIDDEN'
  | 'XML_INVALID_CHAR'
  | 'XML_UNBOUND_PREFIX'
  | 'XML_LIMIT_EXCEEDED';

/** The limits of {@link XmlLimits}, as named in `XmlError.limit`. */
export type XmlLimitName = 'maxSize' | 'maxDepth' | 'maxAttributes' | 'maxElements' | 'maxTextLength';

/** Where in the text a reading error is: all three are set together, or none (writer errors). */
export interface XmlErrorPosition {
  /** 1-based line (LF, CR and CRLF end a line). */
  readonly line: number;
  /** 1-based column, in characters (code points) from the start of the line. */
  readonly column: number;
  /** 0-based index in the text, in UTF-16 code units. */
  readonly offset: number;
}

const MARKER = Symbol.for('@yangkit/xml.XmlError');

/** The one error class of `@yangkit/xml`: a reading error names the place, a writing error the value. */
export class XmlError extends Error {
  override readonly name = 'XmlError';
  /** Stable machine-readable code, see {@link XmlErrorCode}. */
  readonly code: XmlErrorCode;
  /** The problem without its position (`message` adds the position). */
  readonly reason: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly offset: number | undefined;
  /** For `XML_LIMIT_EXCEEDED`: the limit that was exceeded. */
  readonly limit: XmlLimitName | undefined;
  readonly [MARKER] = true;

  constructor(
    code: XmlErrorCode,
    reason: string,
    init: { position?: XmlErrorPosition; limit?: XmlLimitName; cause?: unknown } = {},
  ) {
    const p = init.position;
    super(
      p === undefined ? reason : `${reason} (line ${p.line}, column ${p.column})`,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = code;
    this.reason = reason;
    this.line = p?.line;
    this.column = p?.column;
    this.offset = p?.offset;
    this.limit = init.limit;
  }

  /** True for an XmlError, also one thrown by another copy of this package. */
  static isInstance(value: unknown): value is XmlError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Line and column of `offset` in `text` (computed only when an error is raised). */
export function positionOf(text: string, offset: number): XmlErrorPosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  let column = 1;
  for (let i = lineStart; i < offset; i++) {
    const c = text.charCodeAt(i);
    // The second half of a surrogate pair is the same character as the first.
    const pairTail = c >= 0xdc00 && c <= 0xdfff && i > lineStart && isHighSurrogate(text.charCodeAt(i - 1));
    if (!pairTail) column++;
  }
  return { line, column, offset };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
