import { describe, expect, test } from 'vitest';
import { childElement, innerXml, namespaceDeclarations, outerXml, readXmlDocument } from '../src/index.js';

describe('innerXml', () => {
  test('declares the namespaces in scope on each child element', () => {
    const reply = readXmlDocument(
      '<rpc-reply xmlns="urn:nc" xmlns:if="urn:if"><data><if:interfaces><if:name>x</if:name></if:interfaces><top/></data></rpc-reply>',
    );
    expect(innerXml(childElement(reply, 'data')!)).toBe(
      '<if:interfaces xmlns="urn:nc" xmlns:if="urn:if"><if:name>x</if:name></if:interfaces><top xmlns="urn:nc" xmlns:if="urn:if"/>',
    );
  });

  test('keeps the declaration a child makes over the inherited one', () => {
    expect(innerXml(readXmlDocument('<r xmlns="urn:a"><c xmlns="urn:b"/></r>'))).toBe('<c xmlns="urn:b"/>');
  });

  test('keeps prefixes used only inside values bound', () => {
    const d = childElement(
      readXmlDocument('<r xmlns:ianaift="urn:iana"><d><type>ianaift:ethernetCsmacd</type></d></r>'),
      'd',
    )!;
    expect(readXmlDocument(`<w>${innerXml(d)}</w>`).children[0]).toMatchObject({ local: 'type' });
    expect(innerXml(d)).toBe('<type xmlns:ianaift="urn:iana">ianaift:ethernetCsmacd</type>');
  });

  test('escapes text and attribute values again', () => {
    const r = readXmlDocument('<r><a v="&quot;&lt;&#10;">&lt;&amp;&#13;</a></r>');
    expect(innerXml(r)).toBe('<a v="&quot;&lt;&#10;">&lt;&amp;&#13;</a>');
  });

  test('writes the text of an element holding only text', () => {
    expect(innerXml(readXmlDocument('<a>x &amp; y</a>'))).toBe('x &amp; y');
  });
});

describe('outerXml', () => {
  test('declares the namespaces in scope on the element itself', () => {
    const r = readXmlDocument('<r xmlns:p="urn:p"><p:a q="1"><p:b/></p:a></r>');
    expect(outerXml(childElement(r, 'a')!)).toBe('<p:a xmlns:p="urn:p" q="1"><p:b/></p:a>');
  });

  test('declares again below only what an inner element declares itself', () => {
    const r = readXmlDocument('<r xmlns="urn:r"><a xmlns:x="urn:x"><b xmlns="urn:b"/></a></r>');
    expect(outerXml(r)).toBe('<r xmlns="urn:r"><a xmlns:x="urn:x"><b xmlns="urn:b"/></a></r>');
  });

  test('writes a deeply nested element without exhausting the stack', () => {
    const depth = 20_000;
    const text = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    expect(outerXml(readXmlDocument(text, { maxDepth: depth }))).toBe(text.replace('<a></a>', '<a/>'));
  });
});

describe('namespaceDeclarations', () => {
  test('writes xmlns attributes for each binding, leaving out the xml prefix', () => {
    expect(
      namespaceDeclarations([
        ['', 'urn:a'],
        ['p', 'urn:p?x=1&y=2'],
        ['xml', 'http://www.w3.org/XML/1998/namespace'],
      ]),
    ).toBe(' xmlns="urn:a" xmlns:p="urn:p?x=1&amp;y=2"');
  });
});
