import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseXmlForXPath, XmlInputError, xmlNavigator } from '../src/index.js';

describe('parseXmlForXPath', () => {
  test('resolves default and prefixed namespaces, scoped to their element', () => {
    const root = parseXmlForXPath(
      '<a xmlns="urn:a" xmlns:p="urn:p"><p:b p:x="1" y="2"/><c xmlns="urn:c"/><d/></a>',
    );
    const a = root.children[0]!;
    expect(a.namespace).toBe('urn:a');
    const [b, c, d] = a.children;
    expect([b!.namespace, b!.name]).toEqual(['urn:p', 'b']);
    expect(b!.attributes.map((x) => [x.namespace, x.name, x.value])).toEqual([
      ['urn:p', 'x', '1'],
      ['', 'y', '2'],
    ]);
    expect(c!.namespace).toBe('urn:c');
    expect(d!.namespace).toBe('urn:a');
  });

  test('keeps leaf text as the value, entities decoded', () => {
    const root = parseXmlForXPath('<a><b> x &amp; &lt;y&gt; </b><c/></a>');
    expect(root.children[0]!.children.map((n) => n.value)).toEqual([' x & <y> ', '']);
  });

  test('keeps mixed content as text nodes and drops layout whitespace', () => {
    const root = parseXmlForXPath('<a>\n  <b>1</b>\n  tail\n</a>');
    expect(root.children[0]!.children.map((n) => n.kind)).toEqual(['element', 'text']);
    expect(xmlNavigator.stringValue(root)).toBe('1\n  tail\n');
  });

  test('shows a leaf value as one stable text child', () => {
    const leaf = parseXmlForXPath('<a>v</a>').children[0]!;
    const [first] = xmlNavigator.children(leaf);
    const [again] = xmlNavigator.children(leaf);
    expect(first).toBe(again);
    expect(first!.kind).toBe('text');
  });

  test('refuses DOCTYPE and entity declarations', () => {
    expect(() => parseXmlForXPath('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow(XmlInputError);
  });

  test('refuses malformed XML and undeclared prefixes', () => {
    expect(() => parseXmlForXPath('<a><b></a>')).toThrow(XmlInputError);
    expect(() => parseXmlForXPath('<p:a/>')).toThrow(XmlInputError);
  });

  test('refuses documents over the size and depth limits', () => {
    expect(() => parseXmlForXPath('<a/>', { maxLength: 3 })).toThrow(XmlInputError);
    expect(() => parseXmlForXPath(`${'<a>'.repeat(10)}${'</a>'.repeat(10)}`, { maxDepth: 5 })).toThrow(
      XmlInputError,
    );
  });

  test('throws only XmlInputError on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('<', '>', '/', 'a', 'p:', ' ', '=', '"', 'xmlns', '&', ';', '!'), {
          maxLength: 30,
        }),
        (parts) => {
          try {
            parseXmlForXPath(parts.join(''));
          } catch (error) {
            expect(error).toBeInstanceOf(XmlInputError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
