import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { NetconfError } from '../src/errors.js';
import { parseXml, parseXmlFully } from '../src/xml.js';
import { parseSimpleXml } from '../src/xml-simple.js';

/** The tree or the error code: what a caller of parseXml can observe. */
function outcome(parse: () => unknown): unknown {
  try {
    return parse();
  } catch (error) {
    if (!NetconfError.isInstance(error)) throw error;
    return { code: error.code };
  }
}

function sameAsFullParse(text: string, maxDepth = 256): void {
  expect(outcome(() => parseXml(text, { maxDepth }))).toEqual(outcome(() => parseXmlFully(text, maxDepth)));
}

describe('the plain-subset reader', () => {
  test('reads a small rpc-reply without the full parse', () => {
    const el = parseSimpleXml(
      '<rpc-reply xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" message-id="7"><data><jukebox xmlns="http://example.com/ns/example-jukebox"><player><gap>0.5</gap></player></jukebox></data></rpc-reply>',
      256,
    );
    expect(el?.local).toBe('rpc-reply');
    expect(el?.attributes).toEqual([
      { name: 'message-id', local: 'message-id', namespace: undefined, value: '7' },
    ]);
  });

  test('leaves comments, CDATA, references and declarations to the full parse', () => {
    for (const text of [
      '<a><!-- c --></a>',
      '<a><![CDATA[x]]></a>',
      '<a>&lt;</a>',
      '<a b="&amp;"/>',
      '<?xml version="1.0"?><a/>',
      '<a>x\r\ny</a>',
      '<é/>',
    ]) {
      expect(parseSimpleXml(text, 256)).toBeUndefined();
      sameAsFullParse(text);
    }
  });

  test('leaves malformed input to the full parse, which gives the error', () => {
    for (const text of ['<a><b></a>', '<a b="1" b="2"/>', '<a b/>', '<x:a/>', '<a/><b/>', '<a>', '']) {
      expect(parseSimpleXml(text, 256)).toBeUndefined();
      expect(outcome(() => parseXml(text))).toMatchObject({ code: 'XML_PARSE' });
    }
  });

  test('leaves nesting beyond maxDepth to the full parse', () => {
    const text = `${'<a>'.repeat(11)}${'</a>'.repeat(11)}`;
    expect(parseSimpleXml(text, 10)).toBeUndefined();
    sameAsFullParse(text, 10);
  });
});

const names = fc.constantFrom('a', 'b', 'rpc', 'x:c', 'y:d', 'nc:rpc', 'constructor', 'xml:e', 'a.b-c', '_');
const attrNames = fc.constantFrom('v', 'x:v', 'xmlns', 'xmlns:x', 'xmlns:y', 'xml:lang', 'message-id', 'w');
const pieces = fc.constantFrom(
  'x',
  ' ',
  '\n',
  '\t',
  '\r\n',
  '&amp;',
  '&lt;',
  '&#65;',
  '&foo;',
  '&',
  '>',
  '"',
  "'",
  'urn:x',
  'é',
  '<',
  '',
);
const textArb = fc.array(pieces, { maxLength: 4 }).map((p) => p.join(''));

interface Tree {
  name: string;
  attrs: Array<[string, string, boolean]>;
  text: string;
  tail: string;
  children: Tree[];
  selfClose: boolean;
}

function treeOfDepth(depth: number): fc.Arbitrary<Tree> {
  const children: fc.Arbitrary<Tree[]> =
    depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 3 });
  return fc.record({
    name: names,
    attrs: fc.array(fc.tuple(attrNames, textArb, fc.boolean()), { maxLength: 3 }),
    text: textArb,
    tail: textArb,
    children,
    selfClose: fc.boolean(),
  });
}

function render(t: Tree): string {
  const attrs = t.attrs.map(([n, v, single]) => (single ? ` ${n}='${v}'` : ` ${n}="${v}"`)).join('');
  if (t.selfClose && t.children.length === 0 && t.text === '') return `<${t.name}${attrs}/>${t.tail}`;
  return `<${t.name}${attrs}>${t.text}${t.children.map(render).join('')}</${t.name}>${t.tail}`;
}

describe('properties', () => {
  test('generated documents give the full parse’s tree or error code', () => {
    fc.assert(
      fc.property(treeOfDepth(3), fc.boolean(), (tree, declare) => {
        const doc = render(tree);
        sameAsFullParse(declare ? `<r xmlns="urn:r" xmlns:x="urn:x" xmlns:y="urn:y">${doc}</r>` : doc);
      }),
      { numRuns: 3000 },
    );
  });

  test('token soup gives the full parse’s tree or error code', () => {
    const tokens = fc.constantFrom('<', '>', '/', 'a', '=', '"', "'", '&', ';', ' ', 'xmlns', ':', 'b', '\n');
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (parts, depth) => {
        sameAsFullParse(parts.join(''), depth);
      }),
      { numRuns: 3000 },
    );
  });
});
