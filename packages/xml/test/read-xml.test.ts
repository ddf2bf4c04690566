import { describe, expect, test } from 'vitest';
import { readXml, readXmlDocument, XML_NAMESPACE, type XmlElement } from '../src/index.js';

const child = (e: XmlElement, i = 0) => e.children[i] as XmlElement;

describe('namespaces', () => {
  test('resolves the default namespace inherited from an ancestor', () => {
    const a = readXmlDocument('<a xmlns="urn:a"><b/></a>');
    expect([a.ns, child(a).ns, child(a).local]).toEqual(['urn:a', 'urn:a', 'b']);
  });

  test('resolves a prefix declared on an ancestor and a default redeclared below it', () => {
    const a = readXmlDocument('<p:a xmlns:p="urn:p" xmlns="urn:d"><b xmlns="urn:e"><p:c/></b><d/></p:a>');
    const b = child(a);
    expect([a.ns, b.ns, child(b).ns, child(a, 1).ns]).toEqual(['urn:p', 'urn:e', 'urn:p', 'urn:d']);
  });

  test('gives the qualified name as written beside prefix and local name', () => {
    const a = readXmlDocument('<nc:rpc xmlns:nc="urn:nc"/>');
    expect([a.name, a.prefix, a.local, a.ns]).toEqual(['nc:rpc', 'nc', 'rpc', 'urn:nc']);
  });

  test('puts an element without a default namespace in no namespace', () => {
    expect(readXmlDocument('<a/>').ns).toBe('');
  });

  test('puts an element below xmlns="" in no namespace', () => {
    expect(child(readXmlDocument('<a xmlns="urn:a"><b xmlns=""/></a>')).ns).toBe('');
  });

  test('puts unprefixed attributes in no namespace and prefixed ones in theirs', () => {
    const a = readXmlDocument('<a xmlns="urn:a" xmlns:m="urn:m" x="1" m:y="2"/>');
    expect(a.attributes).toEqual([
      { name: 'x', prefix: '', local: 'x', ns: '', value: '1' },
      { name: 'm:y', prefix: 'm', local: 'y', ns: 'urn:m', value: '2' },
    ]);
  });

  test('binds the xml prefix without a declaration', () => {
    expect(readXmlDocument('<m xml:lang="en"/>').attributes[0]).toMatchObject({
      local: 'lang',
      ns: XML_NAMESPACE,
    });
  });

  test('keeps the declarations an element makes apart from its attributes', () => {
    const a = readXmlDocument('<a xmlns="urn:a" xmlns:p="urn:p" v="1"><b/></a>');
    expect([...a.declarations]).toEqual([
      ['', 'urn:a'],
      ['p', 'urn:p'],
    ]);
    expect(a.attributes.map((x) => x.name)).toEqual(['v']);
    expect(child(a).declarations.size).toBe(0);
  });

  test('looks a prefix up in the scope of a nested element', () => {
    const c = child(child(readXmlDocument('<a xmlns:p="urn:p"><b xmlns:q="urn:q"><c/></b></a>')));
    expect([c.scope.lookup('p'), c.scope.lookup('q'), c.scope.lookup('r')]).toEqual([
      'urn:p',
      'urn:q',
      undefined,
    ]);
    expect([...c.scope.bindings()]).toEqual([
      ['p', 'urn:p'],
      ['q', 'urn:q'],
    ]);
  });

  test('lists the bindings in document order, an inner declaration taking the place of the outer one', () => {
    const b = readXmlDocument('<a xmlns="urn:a" xmlns:p="urn:p"><b xmlns:q="urn:q" xmlns="urn:b"/></a>')
      .children[0] as XmlElement;
    expect([...b.scope.bindings()]).toEqual([
      ['', 'urn:b'],
      ['p', 'urn:p'],
      ['q', 'urn:q'],
    ]);
  });

  test('shares the scope of the parent when an element declares nothing', () => {
    const a = readXmlDocument('<a xmlns="urn:a"><b/></a>');
    expect(child(a).scope).toBe(a.scope);
  });
});

describe('character data', () => {
  test('decodes the predefined entities and character references', () => {
    expect(readXmlDocument('<a>&lt;&amp;&gt;&quot;&apos;&#65;&#x42;&#x1F600;</a>').children).toEqual([
      '<&>"\'AB😀',
    ]);
  });

  test('keeps CDATA content literally and joins it with adjacent text', () => {
    expect(readXmlDocument('<a>x<![CDATA[&lt;<b>]]>y</a>').children).toEqual(['x&lt;<b>y']);
  });

  test('joins the text on both sides of a comment', () => {
    expect(readXmlDocument('<a>x<!-- c -->y</a>').children).toEqual(['xy']);
  });

  test('keeps whitespace that is the whole content of an element', () => {
    const a = readXmlDocument('<a>  <b>  </b>\n</a>');
    expect(a.children).toHaveLength(1);
    expect(child(a).children).toEqual(['  ']);
  });

  test('leaves out whitespace between child elements, also around comments', () => {
    const a = readXmlDocument('<a>\n  <!-- one -->\n  <b/>\n  <c/>\n</a>');
    expect(a.children.map((c) => (typeof c === 'string' ? c : c.name))).toEqual(['b', 'c']);
  });

  test('keeps whitespace that stands in the same run as other text', () => {
    expect(readXmlDocument('<a>x <b/> y</a>').children).toMatchObject(['x ', { name: 'b' }, ' y']);
  });

  test('keeps whitespace after text and a comment as part of that text', () => {
    expect(readXmlDocument('<a>x<!-- c -->\n<b/></a>').children).toMatchObject(['x\n', { name: 'b' }]);
  });

  test('keeps whitespace beside a comment when the element holds only text', () => {
    expect(readXmlDocument('<a> <!-- c --> </a>').children).toEqual(['  ']);
  });

  test('normalizes CR LF and a lone CR in text to LF, and keeps a CR written as a reference', () => {
    expect(readXmlDocument('<a>1\r\n2\r3&#13;</a>').children).toEqual(['1\n2\n3\r']);
  });

  test('normalizes line ends inside a CDATA section', () => {
    expect(readXmlDocument('<a><![CDATA[1\r\n2]]></a>').children).toEqual(['1\n2']);
  });

  test('accepts ">" and "]" in text', () => {
    expect(readXmlDocument('<a>a > b ]] ]></a>').children).toEqual(['a > b ]] ]>']);
  });
});

describe('attributes', () => {
  test('turns literal whitespace in a value into spaces and keeps it when written as references', () => {
    expect(readXmlDocument('<a v="1\t2\n3\r\n4&#9;&#10;&#13;"/>').attributes[0]!.value).toBe('1 2 3 4\t\n\r');
  });

  test('reads single-quoted values holding double quotes', () => {
    expect(readXmlDocument(`<a v='say "hi"'/>`).attributes[0]!.value).toBe('say "hi"');
  });

  test('allows whitespace around "=" and before the end of the tag', () => {
    expect(readXmlDocument('<a v = "1" \n/>').attributes[0]!.value).toBe('1');
  });
});

describe('documents and fragments', () => {
  test('reads several top-level elements as a fragment', () => {
    expect(readXml('<a/>\n<b/>').map((e) => e.local)).toEqual(['a', 'b']);
  });

  test('reads an empty fragment as no element', () => {
    expect(readXml(' \n')).toEqual([]);
  });

  test('skips the XML declaration, a byte order mark and whitespace before the declaration', () => {
    expect(readXmlDocument('\uFEFF<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<a/>').local).toBe(
      'a',
    );
    expect(readXmlDocument('\n<?xml version="1.0"?><a/>').local).toBe('a');
  });

  test('accepts comments before and after the document element', () => {
    expect(readXmlDocument('<!-- a --><a/><!-- b -->').local).toBe('a');
  });

  test('accepts names that are JavaScript object keys', () => {
    const a = readXmlDocument('<constructor><__proto__ toString="1"/><prototype/></constructor>');
    expect([a.local, child(a).local, child(a).attributes[0]!.local]).toEqual([
      'constructor',
      '__proto__',
      'toString',
    ]);
  });

  test('accepts non-ASCII names, supplementary characters included', () => {
    expect(readXmlDocument('<é𐀀·><ü/></é𐀀·>').local).toBe('é𐀀·');
  });

  test('accepts an end tag with whitespace before ">"', () => {
    expect(readXmlDocument('<a></a \n>').local).toBe('a');
  });
});
