import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  escapeXmlAttribute,
  escapeXmlText,
  outerXml,
  readXml,
  readXmlDocument,
  replaceNonXmlChars,
  streamXml,
  textOf,
  type XmlElement,
  XmlError,
  type XmlSink,
} from '../src/index.js';

/** Strings of any code units, the ones XML treats specially made frequent. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .array(
      fc.constantFrom(
        'a',
        ' ',
        '&',
        '<',
        '>',
        '"',
        "'",
        '\t',
        '\n',
        '\r',
        '\r\n',
        ']]>',
        '&amp;',
        'é',
        '😀',
        '\u0000',
        '\uD800',
        '\uDC00',
        '\uFFFE',
      ),
      { maxLength: 12 },
    )
    .map((p) => p.join('')),
);

/** `fn(s)` for an XML-representable `s`; else the escape must refuse `s` with XML_INVALID_CHAR. */
function representable(s: string, write: (s: string) => string): string | undefined {
  try {
    return write(s);
  } catch (error) {
    expect(XmlError.isInstance(error) && error.code).toBe('XML_INVALID_CHAR');
    expect(replaceNonXmlChars(s)).not.toBe(s);
    return undefined;
  }
}

describe('escaping reads back exactly', () => {
  test('any text escaped as element content reads back as the same text', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const escaped = representable(s, escapeXmlText);
        if (escaped !== undefined) expect(textOf(readXmlDocument(`<a>${escaped}</a>`))).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  test('any text escaped as an attribute value reads back as the same value', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const escaped = representable(s, escapeXmlAttribute);
        if (escaped !== undefined)
          expect(readXmlDocument(`<a v="${escaped}"/>`).attributes[0]!.value).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  test('replaceNonXmlChars gives text every escape accepts', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const safe = replaceNonXmlChars(s);
        expect(textOf(readXmlDocument(`<a>${escapeXmlText(safe)}</a>`))).toBe(safe);
      }),
    );
  });
});

interface Tree {
  name: string;
  attrs: [string, string][];
  text: string;
  children: Tree[];
}

const safeText = anyText.map(replaceNonXmlChars);
function treeOfDepth(depth: number): fc.Arbitrary<Tree> {
  return fc.record({
    name: fc.constantFrom('a', 'b', 'x:c', 'constructor', 'é'),
    attrs: fc.uniqueArray(fc.tuple(fc.constantFrom('v', 'x:w', 'id'), safeText), {
      maxLength: 3,
      selector: ([n]) => n,
    }),
    // Mixed content is only written where the text has more than whitespace (layout is dropped).
    text: safeText.filter((t) => t.trim() !== '' || t === ''),
    children: depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 3 }),
  });
}
const treeArb = treeOfDepth(3);
const WRAP = '<root xmlns="urn:r" xmlns:x="urn:x">';

/** The plain spelling of a tree. */
function plain(t: Tree): string {
  const attrs = t.attrs.map(([n, v]) => ` ${n}="${escapeXmlAttribute(v)}"`).join('');
  return `<${t.name}${attrs}>${escapeXmlText(t.text)}${t.children.map(plain).join('')}</${t.name}>`;
}

/**
 * Another spelling of the same tree, choices taken from `pick`: whitespace between elements and
 * inside tags, single quotes, empty-element tags, and the text split into literal pieces, character
 * references, CDATA sections and comments.
 */
function noisy(t: Tree, pick: () => number): string {
  const space = () => [' ', '\n  ', '\t', '\r\n'][pick() % 4]!;
  const attrs = t.attrs
    .map(([n, v]) => {
      const single = pick() % 2 === 0;
      const escaped = escapeXmlAttribute(v).replace(/'/g, single ? '&apos;' : "'");
      return `${space()}${n}${pick() % 2 ? ' = ' : '='}${single ? `'${escaped.replace(/&quot;/g, '"')}'` : `"${escaped}"`}`;
    })
    .join('');
  const pieces: string[] = [];
  const chars = [...t.text];
  for (let i = 0; i < chars.length; ) {
    const n = 1 + (pick() % 3);
    const piece = chars.slice(i, i + n).join('');
    i += n;
    const how = pick() % 4;
    if (how === 0 && !piece.includes(']]>') && !piece.includes('\r') && !piece.includes(']')) {
      pieces.push(`<![CDATA[${piece}]]>`);
    } else if (how === 1)
      pieces.push([...piece].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''));
    else if (how === 2) pieces.push(`${escapeXmlText(piece)}<!-- - -->`);
    else pieces.push(escapeXmlText(piece));
  }
  const tail = pick() % 2 ? '' : space();
  if (t.text === '' && t.children.length === 0 && pick() % 2) return `<${t.name}${attrs}${tail}/>`;
  const layout = t.text === '' && t.children.length > 0 ? space : () => '';
  return `<${t.name}${attrs}${tail}>${pieces.join('')}${t.children.map((c) => layout() + noisy(c, pick)).join('')}${layout()}</${t.name}${tail}>`;
}

/** What a tree reads as, without the scope objects (compared by what they resolve). */
function shape(e: XmlElement): unknown {
  return {
    name: e.name,
    ns: e.ns,
    attributes: e.attributes,
    children: e.children.map((c) => (typeof c === 'string' ? c : shape(c))),
  };
}

describe('spelling changes nothing', () => {
  test('any whitespace between elements, quoting, references, CDATA and comment splits read as the same tree', () => {
    fc.assert(
      fc.property(treeArb, fc.infiniteStream(fc.nat(1000)), (tree, choices) => {
        const it = choices[Symbol.iterator]();
        const pick = () => it.next().value as number;
        const a = readXmlDocument(`${WRAP}${plain(tree)}</root>`);
        const b = readXmlDocument(`<?xml version="1.0"?>\n${WRAP}\n${noisy(tree, pick)}\n</root>\n`);
        expect(shape(b)).toEqual(shape(a));
      }),
      { numRuns: 1000 },
    );
  });

  test('writing a tree and reading it again gives the same text', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const once = outerXml(readXmlDocument(`${WRAP}${plain(tree)}</root>`));
        expect(outerXml(readXmlDocument(once))).toBe(once);
      }),
      { numRuns: 1000 },
    );
  });

  test('streaming with every element collected gives the tree readXml gives', () => {
    fc.assert(
      fc.property(fc.array(treeArb, { maxLength: 3 }), (trees) => {
        const text = `${trees.map((t) => `${WRAP}${plain(t)}</root>`).join('\n')}`;
        const streamed: XmlElement[] = [];
        streamXml(text, { open: () => 'collect', text() {}, close: (e) => void streamed.push(e) });
        expect(streamed.map(shape)).toEqual(readXml(text).map(shape));
      }),
      { numRuns: 300 },
    );
  });
});

/** `text` cut at the offsets `cuts` (any order, repeats allowed: empty pieces). */
function piecesOf(text: string, cuts: readonly number[]): string[] {
  const at = cuts.map((c) => c % (text.length + 1)).sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const c of at) {
    pieces.push(text.slice(from, c));
    from = c;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/**
 * Everything a sink is given while `text` (a string or pieces) is read, in order, positions
 * included, and the error that ended the read (code, line, column and offset), if any.
 */
function record(text: string | string[]): unknown[] {
  const calls: unknown[] = [];
  const sink: XmlSink = {
    open: (e, depth, start, end) => {
      calls.push(['open', e.name, e.ns, e.attributes, depth, start, end]);
      return (['stream', 'collect', 'skip'] as const)[depth % 3]!;
    },
    text: (e, t) => void calls.push(['text', e.name, t]),
    close: (e, contentEnd) => void calls.push(['close', shape(e), contentEnd]),
  };
  try {
    streamXml(text, sink, { maxDepth: 8 });
  } catch (error) {
    if (!XmlError.isInstance(error)) throw error;
    calls.push(['error', error.code, error.line, error.column, error.offset]);
  }
  return calls;
}

describe('reading in pieces changes nothing', () => {
  test('a document cut anywhere gives the sink what the whole text gives, positions included', () => {
    fc.assert(
      fc.property(
        treeArb,
        fc.infiniteStream(fc.nat(1000)),
        fc.array(fc.nat(), { maxLength: 12 }),
        (tree, choices, cuts) => {
          const it = choices[Symbol.iterator]();
          const pick = () => it.next().value as number;
          const text = `\uFEFF<?xml version="1.0"?>\r\n${WRAP}\n${noisy(tree, pick)}\n</root>\n`;
          expect(record(piecesOf(text, cuts))).toEqual(record(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test('malformed text cut anywhere fails as the whole text does, at the same line and column', () => {
    const token = fc.constantFrom(
      ...'< > / a p:b = " \' & ; x ! ? [ ] - xmlns:p <a> </a> <b> &amp; &x; &#0; <!-- --> <![CDATA[ ]]>'.split(
        ' ',
      ),
      ...['\n', '\r', ' ', '<p:c xmlns:p="u"/>', '<?xml version="1.0"?>', '<!DOCTYPE', '\uD800', '😀'],
      ...['<a b="', " c='", '<a b="1">'],
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const text = parts.join('');
        expect(record(piecesOf(text, cuts))).toEqual(record(text));
      }),
      { numRuns: 3000 },
    );
  });

  test('a document read one character at a time gives what the whole text gives', () => {
    fc.assert(
      fc.property(treeArb, fc.infiniteStream(fc.nat(1000)), (tree, choices) => {
        const it = choices[Symbol.iterator]();
        const pick = () => it.next().value as number;
        const text = `<?xml version="1.0"?>\n${WRAP}${noisy(tree, pick)}</root>`;
        expect(record([...text])).toEqual(record(text));
      }),
      { numRuns: 200 },
    );
  });
});

/** Reads `text` every way; only XmlError may come out. */
function readAnyWay(text: string): void {
  for (const read of [
    () => readXml(text, { maxDepth: 8 }),
    () => readXmlDocument(text, { maxDepth: 8 }),
    () =>
      streamXml(text, {
        open: (_e, d) => (['stream', 'collect', 'skip'] as const)[d % 3]!,
        text() {},
        close() {},
      }),
  ]) {
    try {
      read();
    } catch (error) {
      if (!XmlError.isInstance(error)) throw error;
      expect(error.line).toBeGreaterThanOrEqual(1);
    }
  }
}

describe('only XmlError is thrown', () => {
  test('for arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 100 }), readAnyWay), { numRuns: 2000 });
  });

  test('for soups of XML tokens', () => {
    // Space-separated pieces of markup, names, references and characters XML refuses.
    const token = fc.constantFrom(
      ...'< > / a p:b = " \' & ; # x ! ? [ ] - xmlns xmlns:p : <a> </a> <b> </b> &amp; &x; &#0; &#x41;'.split(
        ' ',
      ),
      ...[
        '\n',
        ' ',
        '<p:c xmlns:p="u"/>',
        '<!--',
        '-->',
        '<![CDATA[',
        ']]>',
        '<?x?>',
        '<?xml version="1.0"?>',
      ],
      ...['<!DOCTYPE', '\u0000', '\uD800', 'é'],
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 50 }), (parts) => readAnyWay(parts.join(''))),
      {
        numRuns: 3000,
      },
    );
  });

  test('for generated documents with one character changed', () => {
    fc.assert(
      fc.property(
        treeArb,
        fc.nat(),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        (tree, at, c) => {
          const text = `${WRAP}${plain(tree)}</root>`;
          const i = at % text.length;
          readAnyWay(text.slice(0, i) + c + text.slice(i + 1));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
