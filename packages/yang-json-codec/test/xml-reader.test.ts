import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CodecError } from '../src/errors';
import { readXml, type XmlElement } from '../src/xml-reader';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return CodecError.isInstance(e) ? e.code : `foreign: ${String(e)}`;
  }
  return undefined;
}

describe('readXml', () => {
  test('resolves the default namespace inherited from an ancestor', () => {
    const [a] = readXml('<a xmlns="urn:a"><b/></a>');
    const b = a!.children[0] as XmlElement;
    expect([a!.ns, b.ns, b.local]).toEqual(['urn:a', 'urn:a', 'b']);
  });

  test('resolves a prefix declared on an ancestor and a default redeclared below it', () => {
    const [a] = readXml('<p:a xmlns:p="urn:p" xmlns="urn:d"><b xmlns="urn:e"><p:c/></b><d/></p:a>');
    const b = a!.children[0] as XmlElement;
    const c = b.children[0] as XmlElement;
    const d = a!.children[1] as XmlElement;
    expect([a!.ns, b.ns, c.ns, d.ns]).toEqual(['urn:p', 'urn:e', 'urn:p', 'urn:d']);
  });

  test('puts unprefixed attributes in no namespace and prefixed ones in theirs', () => {
    const [a] = readXml('<a xmlns="urn:a" xmlns:m="urn:m" x="1" m:y="2"/>');
    expect(a!.attributes).toEqual([
      { ns: '', prefix: '', local: 'x', value: '1' },
      { ns: 'urn:m', prefix: 'm', local: 'y', value: '2' },
    ]);
  });

  test('decodes predefined entities and character references', () => {
    const [a] = readXml('<a>&lt;&amp;&gt;&quot;&apos;&#65;&#x42;</a>');
    expect(a!.children).toEqual(['<&>"\'AB']);
  });

  test('keeps CDATA content literally and joins it with adjacent text', () => {
    const [a] = readXml('<a>x<![CDATA[&lt;<b>]]>y</a>');
    expect(a!.children).toEqual(['x&lt;<b>y']);
  });

  test('keeps whitespace that is the whole content of an element', () => {
    const [a] = readXml('<a>  <b>  </b>\n</a>');
    expect(a!.children).toEqual([{ ...(a!.children[0] as XmlElement), children: ['  '] }]);
  });

  test('keeps text around comments inside a value', () => {
    expect(readXml('<a>x<!-- c -->y</a>')[0]!.children).toEqual(['xy']);
  });

  test('refuses an unquoted attribute value', () => {
    expect(codeOf(() => readXml('<a b=1/>'))).toBe('XML_MALFORMED');
  });

  test('refuses a repeated attribute', () => {
    expect(codeOf(() => readXml('<a b="1" b="2"/>'))).toBe('XML_MALFORMED');
  });

  test('refuses attributes without whitespace between them', () => {
    expect(codeOf(() => readXml('<a b="1"c="2"/>'))).toBe('XML_MALFORMED');
  });

  test('refuses an unclosed element and names it with its position', () => {
    const e = (() => {
      try {
        readXml('<a>\n<b>');
      } catch (err) {
        return err as CodecError;
      }
    })();
    expect(e?.message).toMatch(/line 2.*<b> is not closed/);
  });

  test('refuses an end tag that only starts like the open one', () => {
    expect(codeOf(() => readXml('<ab></abc>'))).toBe('XML_MALFORMED');
  });

  test('reads several top-level elements', () => {
    expect(readXml('<a/>\n<b/>').map((e) => e.local)).toEqual(['a', 'b']);
  });

  test('refuses a DOCTYPE with entity declarations', () => {
    expect(codeOf(() => readXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'))).toBe('XML_FORBIDDEN');
  });

  test('refuses processing instructions but allows the XML declaration', () => {
    expect(codeOf(() => readXml('<a><?pi x?></a>'))).toBe('XML_FORBIDDEN');
    expect(readXml('<?xml version="1.0" encoding="UTF-8"?><a/>')[0]!.local).toBe('a');
  });

  test('refuses an undeclared entity reference', () => {
    expect(codeOf(() => readXml('<a>&lol;</a>'))).toBe('XML_FORBIDDEN');
  });

  test('refuses mismatched end tags', () => {
    expect(codeOf(() => readXml('<a><b></a>'))).toBe('XML_MALFORMED');
  });

  test('refuses an unbound prefix', () => {
    expect(codeOf(() => readXml('<p:a/>'))).toBe('XML_MALFORMED');
  });

  test('refuses text outside the document element', () => {
    expect(codeOf(() => readXml('hello'))).toBe('XML_MALFORMED');
  });

  test('refuses nesting deeper than the depth limit', () => {
    const deep = '<a>'.repeat(50) + '</a>'.repeat(50);
    expect(codeOf(() => readXml(deep, { maxDepth: 20 }))).toBe('LIMIT_EXCEEDED');
    expect(readXml(deep, { maxDepth: 50 })).toHaveLength(1);
  });

  test('refuses input above the size limit', () => {
    expect(codeOf(() => readXml('<a>0123456789</a>', { maxSize: 10 }))).toBe('LIMIT_EXCEEDED');
  });

  test('never throws anything but CodecError on arbitrary input', () => {
    const piece = fc.constantFrom(
      '<a>',
      '</a>',
      '<b x="1">',
      '</b>',
      '<p:c xmlns:p="u"/>',
      '&amp;',
      '&x;',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '<?x?>',
      '<!DOCTYPE',
      'text',
      '"',
      "'",
      '=',
      '&#0;',
      '&#x41;',
      ' ',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece).map((p) => p.join('')),
        ),
        (s) => {
          const code = codeOf(() => readXml(s, { maxDepth: 8 }));
          expect(code === undefined || !code.startsWith('foreign')).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
