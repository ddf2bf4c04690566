import { CodecError } from './errors';
import { NamespaceScope } from './namespace-scope';
import { decodeEntities, normalizeAttribute } from './xml-entities';

/** An attribute with its namespace resolved; unprefixed attributes are in no namespace (`ns` is ''). */
export interface XmlAttribute {
  readonly ns: string;
  readonly prefix: string;
  readonly local: string;
  readonly value: string;
}

/** An element with its namespace resolved from the declarations in scope. */
export interface XmlElement {
  readonly ns: string;
  readonly prefix: string;
  readonly local: string;
  readonly attributes: readonly XmlAttribute[];
  /** Child elements and text pieces in document order (entities and character references decoded). */
  readonly children: readonly (XmlElement | string)[];
  readonly scope: NamespaceScope;
}

/** Limits that keep reading bounded on hostile input. */
export interface XmlLimits {
  /** Largest accepted text, in UTF-16 code units (default 256 MiB). */
  readonly maxSize?: number;
  /** Deepest accepted element nesting (default 256). */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_SIZE = 256 * 1024 * 1024;
const DEFAULT_MAX_DEPTH = 256;

/** An element being read: becomes the finished XmlElement once its end tag is seen. */
interface Frame extends XmlElement {
  readonly tag: string;
  children: (XmlElement | string)[];
  /** Children are kept in `children` (else they go to the sink as they are read). */
  collect: boolean;
  /** A child element was seen (whitespace beside it is then not content). */
  hasElements: boolean;
}

/**
 * Receives elements while they are read, so that a large document never exists as a whole element tree.
 * `open` sees an element with its attributes and decides: 'collect' keeps its whole subtree (delivered
 * complete to `close`), 'stream' hands its child elements to `open`/`close` one by one and its text to
 * `text`. Errors thrown by the sink propagate out of {@link streamXml}.
 */
export interface XmlSink {
  open(element: XmlElement, depth: number): 'collect' | 'stream';
  text(element: XmlElement, text: string): void;
  close(element: XmlElement): void;
}

const NO_ATTRIBUTES: readonly XmlAttribute[] = Object.freeze([]);
const NO_CHILDREN: (XmlElement | string)[] = [];

/** XML NameStartChar (XML 1.0 section 2.3; non-ASCII characters are accepted as name characters). */
function isNameStart(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x5f ||
    c === 0x3a ||
    (c >= 0xc0 && c <= 0xffff && c !== 0xfeff)
  );
}

/** XML NameChar. */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2e || c === 0xb7;
}

/**
 * Reads an XML document or fragment (several top-level elements are allowed, as NETCONF `<data>` content
 * has them) into namespace-resolved elements, in one pass with an explicit stack (no recursion, so no
 * input can exhaust the call stack). It checks well-formedness (names, matching end tags, quoted and
 * unique attributes, entity references) and refuses DOCTYPE (and with it every entity declaration),
 * processing instructions other than the XML declaration, undeclared entities, unbound prefixes, text
 * outside elements, and input over the size or depth limits. Throws only {@link CodecError}.
 */
export function readXml(text: string, limits: XmlLimits = {}): XmlElement[] {
  const maxSize = limits.maxSize ?? DEFAULT_MAX_SIZE;
  const maxDepth = limits.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (typeof text !== 'string') {
    throw new CodecError('XML_MALFORMED', 'XML input must be a string', { errorTag: 'malformed-message' });
  }
  if (text.length > maxSize) {
    throw new CodecError(
      'LIMIT_EXCEEDED',
      `XML input of ${text.length} characters exceeds the limit of ${maxSize}`,
      {
        errorTag: 'too-big',
      },
    );
  }
  return new Scanner(text, maxDepth, undefined).document();
}

/**
 * Reads an XML document like {@link readXml} but delivers it to `sink` element by element (top-level
 * elements included), keeping only what the sink asks to collect.
 */
export function streamXml(text: string, sink: XmlSink, limits: XmlLimits = {}): void {
  const maxSize = limits.maxSize ?? DEFAULT_MAX_SIZE;
  if (typeof text !== 'string') {
    throw new CodecError('XML_MALFORMED', 'XML input must be a string', { errorTag: 'malformed-message' });
  }
  if (text.length > maxSize) {
    throw new CodecError(
      'LIMIT_EXCEEDED',
      `XML input of ${text.length} characters exceeds the limit of ${maxSize}`,
      {
        errorTag: 'too-big',
      },
    );
  }
  new Scanner(text, limits.maxDepth ?? DEFAULT_MAX_DEPTH, sink).document();
}

class Scanner {
  private i = 0;
  private readonly stack: Frame[] = [];
  private readonly top: XmlElement[] = [];
  private readonly root = new NamespaceScope(undefined, new Map());
  /** Whitespace-only text not yet known to be content: it is, only in an element without child elements. */
  private pendingFrom = -1;
  private pendingTo = -1;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly sink: XmlSink | undefined,
  ) {}

  private fail(
    message: string,
    at = this.i,
    code: 'XML_MALFORMED' | 'XML_FORBIDDEN' = 'XML_MALFORMED',
  ): CodecError {
    let line = 1;
    let lineStart = 0;
    for (let j = this.text.indexOf('\n'); j >= 0 && j < at; j = this.text.indexOf('\n', j + 1)) {
      line++;
      lineStart = j + 1;
    }
    return new CodecError(code, `malformed XML at line ${line}, column ${at - lineStart + 1}: ${message}`, {
      errorTag: 'malformed-message',
    });
  }

  document(): XmlElement[] {
    const text = this.text;
    if (text.charCodeAt(0) === 0xfeff) this.i = 1;
    // XML declaration (XML 1.0 section 2.8): only at the very start.
    if (text.startsWith('<?xml', this.i) && /[\s?]/.test(text[this.i + 5] ?? '')) {
      const end = text.indexOf('?>', this.i);
      if (end < 0) throw this.fail('unterminated XML declaration');
      this.i = end + 2;
    }
    const len = text.length;
    while (this.i < len) {
      const lt = text.indexOf('<', this.i);
      const textEnd = lt < 0 ? len : lt;
      if (this.i < textEnd) this.characters(this.i, textEnd);
      if (lt < 0) break;
      this.i = lt;
      this.markup();
    }
    if (this.stack.length > 0) {
      throw this.fail(`element <${this.stack[this.stack.length - 1]!.tag}> is not closed`, len);
    }
    return this.top;
  }

  private characters(from: number, to: number): void {
    const text = this.text;
    let j = from;
    for (; j < to; j++) {
      const c = text.charCodeAt(j);
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
    }
    const frame = this.stack[this.stack.length - 1];
    if (j === to) {
      // Indentation between elements allocates nothing unless it turns out to be a leaf's value.
      if (frame !== undefined) {
        this.pendingFrom = from;
        this.pendingTo = to;
      }
      return;
    }
    if (frame === undefined) throw this.fail('text outside the document element', from);
    const raw = text.slice(from, to);
    if (raw.includes(']]>')) throw this.fail('"]]>" in text', from);
    let value: string;
    try {
      value = decodeEntities(raw);
    } catch (e) {
      throw CodecError.isInstance(e)
        ? this.fail(e.message, from, e.code === 'XML_FORBIDDEN' ? 'XML_FORBIDDEN' : 'XML_MALFORMED')
        : e;
    }
    this.content(frame, value);
  }

  private markup(): void {
    const text = this.text;
    const i = this.i;
    const c = text.charCodeAt(i + 1);
    if (this.pendingFrom >= 0) {
      const frame = this.stack[this.stack.length - 1]!;
      // Whitespace before the end tag of an element holding only text, or beside other text, is content.
      if ((c === 0x2f && !frame.hasElements) || c === 0x21) {
        this.content(frame, text.slice(this.pendingFrom, this.pendingTo));
      }
      this.pendingFrom = -1;
    }
    if (c === 0x2f /* / */) {
      this.endTag();
      return;
    }
    if (c === 0x21 /* ! */) {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        if (end < 0) throw this.fail('unterminated comment');
        this.i = end + 3;
        return;
      }
      if (text.startsWith('<![CDATA[', i)) {
        const frame = this.stack[this.stack.length - 1];
        if (frame === undefined) throw this.fail('CDATA section outside the document element');
        const end = text.indexOf(']]>', i + 9);
        if (end < 0) throw this.fail('unterminated CDATA section');
        this.content(frame, text.slice(i + 9, end));
        this.i = end + 3;
        return;
      }
      throw this.fail('DOCTYPE and markup declarations are not allowed', i, 'XML_FORBIDDEN');
    }
    if (c === 0x3f /* ? */) throw this.fail('processing instructions are not allowed', i, 'XML_FORBIDDEN');
    this.startTag();
  }

  private name(what: string): string {
    const text = this.text;
    const start = this.i;
    if (!isNameStart(text.charCodeAt(start))) throw this.fail(`expected ${what}`);
    let j = start + 1;
    while (isNameChar(text.charCodeAt(j))) j++;
    this.i = j;
    return text.slice(start, j);
  }

  private skipSpace(): boolean {
    const text = this.text;
    const start = this.i;
    for (;;) {
      const c = text.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) this.i++;
      else return this.i > start;
    }
  }

  private startTag(): void {
    const text = this.text;
    this.i++;
    const tag = this.name('an element name');
    let rawAttrs: [string, string][] | undefined;
    // A set, not a scan of rawAttrs: thousands of attributes must not cost quadratic time.
    let seen: Set<string> | undefined;
    for (;;) {
      const spaced = this.skipSpace();
      const c = text.charCodeAt(this.i);
      if (c === 0x3e /* > */ || (c === 0x2f && text.charCodeAt(this.i + 1) === 0x3e)) break;
      if (Number.isNaN(c)) throw this.fail(`unterminated start tag <${tag}>`);
      if (!spaced) throw this.fail(`expected whitespace before an attribute in <${tag}>`);
      const name = this.name('an attribute name');
      this.skipSpace();
      if (text.charCodeAt(this.i) !== 0x3d) throw this.fail(`attribute "${name}" has no value`);
      this.i++;
      this.skipSpace();
      const q = text.charCodeAt(this.i);
      if (q !== 0x22 && q !== 0x27) throw this.fail(`attribute "${name}" value is not quoted`);
      const end = text.indexOf(q === 0x22 ? '"' : "'", this.i + 1);
      if (end < 0) throw this.fail(`unterminated value of attribute "${name}"`);
      const raw = text.slice(this.i + 1, end);
      if (raw.includes('<')) throw this.fail(`"<" in the value of attribute "${name}"`);
      rawAttrs ??= [];
      seen ??= new Set();
      if (seen.has(name)) throw this.fail(`attribute "${name}" is repeated`);
      seen.add(name);
      let value: string;
      try {
        value = normalizeAttribute(decodeEntities(raw));
      } catch (e) {
        throw CodecError.isInstance(e)
          ? this.fail(e.message, this.i, e.code === 'XML_FORBIDDEN' ? 'XML_FORBIDDEN' : 'XML_MALFORMED')
          : e;
      }
      rawAttrs.push([name, value]);
      this.i = end + 1;
    }
    const selfClosing = text.charCodeAt(this.i) === 0x2f;
    this.i += selfClosing ? 2 : 1;
    const parent = this.stack[this.stack.length - 1];
    let scope = parent?.scope ?? this.root;
    const attributes: XmlAttribute[] = [];
    if (rawAttrs !== undefined) {
      let declared: Map<string, string> | undefined;
      for (const [name, value] of rawAttrs) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          const prefix = name === 'xmlns' ? '' : name.slice(6);
          if (prefix !== '' && value === '') throw this.fail(`prefix "${prefix}" may not be undeclared`);
          (declared ??= new Map()).set(prefix, value);
        }
      }
      if (declared !== undefined) scope = new NamespaceScope(scope, declared);
      for (const [name, value] of rawAttrs) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        const colon = name.indexOf(':');
        const prefix = colon < 0 ? '' : name.slice(0, colon);
        const local = colon < 0 ? name : name.slice(colon + 1);
        // Unprefixed attributes are in no namespace, whatever the default namespace is.
        const ns = prefix === '' ? '' : resolvePrefix(scope, prefix, name);
        attributes.push({ ns, prefix, local, value });
      }
    }
    const colon = tag.indexOf(':');
    const prefix = colon < 0 ? '' : tag.slice(0, colon);
    const local = colon < 0 ? tag : tag.slice(colon + 1);
    const ns = prefix === '' ? (scope.lookup('') ?? '') : resolvePrefix(scope, prefix, tag);
    const frame: Frame = {
      tag,
      prefix,
      local,
      ns,
      attributes: attributes.length === 0 ? NO_ATTRIBUTES : attributes,
      children: this.sink === undefined ? [] : NO_CHILDREN,
      scope,
      collect: true,
      hasElements: false,
    };
    if (parent !== undefined) parent.hasElements = true;
    if (this.sink !== undefined && (parent === undefined || !parent.collect)) {
      frame.collect = this.sink.open(frame, this.stack.length) === 'collect';
    }
    // Streamed elements keep no children, so only collected ones get an array.
    if (frame.collect && frame.children === NO_CHILDREN) frame.children = [];
    if (selfClosing) this.finish(frame, parent);
    else {
      if (this.stack.length >= this.maxDepth) {
        throw new CodecError(
          'LIMIT_EXCEEDED',
          `XML nesting deeper than the limit of ${this.maxDepth} elements`,
          {
            errorTag: 'malformed-message',
          },
        );
      }
      this.stack.push(frame);
    }
  }

  private endTag(): void {
    const start = this.i;
    const text = this.text;
    const frame = this.stack.pop();
    const tag = frame?.tag;
    const after = start + 2 + (tag?.length ?? 0);
    if (frame === undefined || !text.startsWith(tag!, start + 2) || isNameChar(text.charCodeAt(after))) {
      this.i = start + 2;
      const found = this.name('an element name');
      throw this.fail(
        frame === undefined
          ? `end tag </${found}> without a start tag`
          : `expected </${tag}>, found </${found}>`,
        start,
      );
    }
    this.i = after;
    this.skipSpace();
    if (text.charCodeAt(this.i) !== 0x3e) throw this.fail(`unterminated end tag </${tag}>`);
    this.i++;
    this.finish(frame, this.stack[this.stack.length - 1]);
  }

  private finish(frame: Frame, parent: Frame | undefined): void {
    if (parent?.collect) parent.children.push(frame);
    else if (this.sink !== undefined) this.sink.close(frame);
    else this.top.push(frame);
  }

  /** Text content of `frame`: kept when collecting, else handed to the sink. */
  private content(frame: Frame, value: string): void {
    if (frame.collect) appendText(frame.children, value);
    else if (value !== '') this.sink!.text(frame, value);
  }
}

/** Adjacent text and CDATA pieces are one text node to a reader. */
function appendText(children: (XmlElement | string)[], value: string): void {
  if (value === '') return;
  const last = children.length - 1;
  if (last >= 0 && typeof children[last] === 'string') children[last] += value;
  else children.push(value);
}

function resolvePrefix(scope: NamespaceScope, prefix: string, name: string): string {
  const ns = scope.lookup(prefix);
  if (ns === undefined) {
    throw new CodecError('XML_MALFORMED', `unbound namespace prefix "${prefix}" in "${name}"`, {
      errorTag: 'malformed-message',
    });
  }
  return ns;
}
