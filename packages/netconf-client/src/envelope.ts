import { NetconfError } from './errors.js';
import { decodeEntities } from './xml.js';

/** An element near the top of a scanned document: its byte range and its start tag, decoded. */
export interface EnvelopeElement {
  /** The qualified name as written. */
  readonly name: string;
  /** Index of the `<` of the start tag. */
  readonly start: number;
  /** Index of the `>` or `/>` closing the start tag (where pushed-down declarations go). */
  readonly tagClose: number;
  /** Index just past the `>` of the start tag. */
  readonly contentStart: number;
  /** Index of the `<` of the end tag (equal to `contentStart` for an empty-element tag). */
  contentEnd: number;
  /** Namespace declarations on the start tag: prefix (`''` for the default) to URI. */
  readonly declarations: Map<string, string>;
  /** Other attributes: qualified name to decoded value. */
  readonly attributes: Map<string, string>;
  /** Child elements, recorded for the root and its children only. */
  readonly children: EnvelopeElement[];
}

// Depth of the elements whose start tags are decoded: the root (1), its children (2) and theirs (3).
const RECORD_DEPTH = 3;
const REFERENCE = /&(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/y;
// XML 1.0 Name, with every non-ASCII character let through (the full parse checks them).
const NAME = /^[A-Za-z_:\u0080-\uFFFF][-A-Za-z0-9_:.\u0080-\uFFFF]*$/;
const ATTRIBUTE = /[ \t\r\n]+([^\s=/>]+)[ \t\r\n]*=[ \t\r\n]*(?:"([^"]*)"|'([^']*)')/y;
const SPACE = /^[ \t\r\n]*$/;

function parseError(message: string): NetconfError {
  return new NetconfError('XML_PARSE', message);
}

function checkReference(text: string, at: number): void {
  REFERENCE.lastIndex = at;
  if (!REFERENCE.test(text)) throw parseError('bare & or undefined entity reference');
  if (text.charCodeAt(at + 1) === 0x23 /* # */) decodeEntities(text.slice(at, REFERENCE.lastIndex));
}

function readAttributes(text: string, from: number, to: number, el: EnvelopeElement): void {
  let i = from;
  while (i < to) {
    ATTRIBUTE.lastIndex = i;
    const match = ATTRIBUTE.exec(text);
    if (match === null || match.index !== i || ATTRIBUTE.lastIndex > to) {
      if (SPACE.test(text.slice(i, to))) return;
      throw parseError(`malformed attributes in <${el.name}>`);
    }
    const name = match[1]!;
    const value = decodeEntities(match[2] ?? match[3] ?? '');
    if (el.attributes.has(name) || (name.startsWith('xmlns') && el.declarations.has(name.slice(6)))) {
      throw parseError(`duplicate attribute ${name} in <${el.name}>`);
    }
    if (name === 'xmlns') el.declarations.set('', value);
    else if (name.startsWith('xmlns:')) {
      if (value === '') throw parseError(`empty namespace for prefix ${name.slice(6)}`);
      el.declarations.set(name.slice(6), value);
    } else el.attributes.set(name, value);
    i = ATTRIBUTE.lastIndex;
  }
}

/**
 * One linear pass over a message that checks what the full parse would refuse outright (DOCTYPE,
 * entity declarations and processing instructions as `XML_FORBIDDEN`; unbalanced or mismatched
 * tags, undefined entity references, text or a second element outside the root, nesting beyond
 * `maxDepth` as `XML_PARSE`) and builds no tree: only the start tags of the root, its children and
 * theirs are decoded, with the byte ranges of their content. Attribute syntax and namespace
 * prefixes deeper down are left to whoever parses that content.
 */
export function scanEnvelope(text: string, maxDepth: number): EnvelopeElement {
  const open: string[] = [];
  const recorded: EnvelopeElement[] = [];
  let root: EnvelopeElement | undefined;
  let amp = text.indexOf('&');
  let i = text.indexOf('<');
  if (i === -1 || !SPACE.test(text.slice(0, i)))
    throw parseError('a document must have exactly one root element');
  const first = i;
  let end = 0; // end of the previous token
  while (i !== -1) {
    // Every & before this token lies in character data or an attribute value: it must be a reference.
    while (amp !== -1 && amp < i) {
      checkReference(text, amp);
      amp = text.indexOf('&', amp + 1);
    }
    if (open.length === 0 && !SPACE.test(text.slice(end, i)))
      throw parseError('text outside the root element');
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 /* ! */) {
      const cdata = text.startsWith('<![CDATA[', i);
      if (!cdata && !text.startsWith('<!--', i)) {
        throw new NetconfError(
          'XML_FORBIDDEN',
          'DOCTYPE and markup declarations are not allowed in NETCONF messages',
        );
      }
      if (cdata && open.length === 0) throw parseError('CDATA section outside the root element');
      const close = cdata ? text.indexOf(']]>', i + 9) : text.indexOf('-->', i + 4);
      if (close === -1) throw parseError(cdata ? 'unterminated CDATA section' : 'unterminated comment');
      end = close + 3;
      while (amp !== -1 && amp < end) amp = text.indexOf('&', amp + 1);
      i = text.indexOf('<', end);
      continue;
    }
    if (next === 0x3f /* ? */) {
      if (i !== first || !/^<\?xml[ \t\r\n]/.test(text.slice(i, i + 6))) {
        throw new NetconfError('XML_FORBIDDEN', 'processing instructions are not allowed');
      }
      const close = text.indexOf('?>', i + 2);
      if (close === -1) throw parseError('unterminated XML declaration');
      end = close + 2;
      while (amp !== -1 && amp < end) amp = text.indexOf('&', amp + 1);
      i = text.indexOf('<', end);
      continue;
    }
    // The end of the tag, skipping quoted attribute values (which may not hold `<`).
    let j = i + 1;
    let quote = 0;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (quote !== 0) {
        if (c === quote) quote = 0;
        else if (c === 0x3c) break;
      } else if (c === 0x22 || c === 0x27) quote = c;
      else if (c === 0x3e /* > */ || c === 0x3c) break;
    }
    if (j >= text.length || text.charCodeAt(j) !== 0x3e) throw parseError('unterminated tag');
    end = j + 1;
    if (next === 0x2f /* / */) {
      const expected = open.pop();
      if (expected === undefined) throw parseError('end tag without a start tag');
      // Compared in place: slicing every end tag name would double the garbage of a large reply.
      const after = i + 2 + expected.length;
      if (!text.startsWith(expected, i + 2) || (after !== j && !SPACE.test(text.slice(after, j)))) {
        throw parseError(`end tag </${text.slice(i + 2, j).trimEnd()}> does not match <${expected}>`);
      }
      if (open.length < RECORD_DEPTH) recorded.pop()!.contentEnd = i;
    } else {
      if (open.length === 0 && root !== undefined)
        throw parseError('a document must have exactly one root element');
      const empty = text.charCodeAt(j - 1) === 0x2f;
      let n = i + 1;
      while (n < j) {
        const c = text.charCodeAt(n);
        if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2f || c === 0x3e) break;
        n++;
      }
      const name = text.slice(i + 1, n);
      if (!NAME.test(name)) throw parseError(`invalid element name ${JSON.stringify(name)}`);
      if (open.length + 1 > maxDepth) throw parseError(`element nesting exceeds ${maxDepth}`);
      if (open.length < RECORD_DEPTH) {
        const el: EnvelopeElement = {
          name,
          start: i,
          tagClose: empty ? j - 1 : j,
          contentStart: end,
          contentEnd: end,
          declarations: new Map(),
          attributes: new Map(),
          children: [],
        };
        readAttributes(text, n, empty ? j - 1 : j, el);
        if (open.length === 0) root = el;
        else if (open.length < RECORD_DEPTH) recorded[recorded.length - 1]!.children.push(el);
        if (!empty) recorded.push(el);
      }
      if (!empty) open.push(name);
    }
    i = text.indexOf('<', end);
  }
  while (amp !== -1) {
    checkReference(text, amp);
    amp = text.indexOf('&', amp + 1);
  }
  if (open.length > 0) throw parseError(`unclosed element <${open[open.length - 1]}>`);
  if (root === undefined) throw parseError('a document must have exactly one root element');
  if (!SPACE.test(text.slice(end))) throw parseError('text outside the root element');
  return root;
}
