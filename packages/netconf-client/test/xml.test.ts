import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { NetconfError } from '../src/errors.js';
import {
  childElement,
  escapeXmlAttribute,
  escapeXmlText,
  innerXml,
  outerXml,
  parseXml,
  textOf,
} from '../src/xml.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as NetconfError).code;
  }
  return undefined;
}

describe('parseXml', () => {
  test('resolves default and prefixed namespaces', () => {
    const el = parseXml('<a xmlns="urn:a" xmlns:b="urn:b"><b:c/><d/></a>');
    expect(el.namespace).toBe('urn:a');
    expect(el.children.map((c) => (c.type === 'element' ? [c.local, c.namespace] : null))).toEqual([
      ['c', 'urn:b'],
      ['d', 'urn:a'],
    ]);
  });

  test('skips the XML declaration a server sends first', () => {
    expect(parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a/>').local).toBe('a');
  });

  test('decodes predefined entities and character references', () => {
    expect(textOf(parseXml('<a>&lt;&amp;&gt;&quot;&apos;&#65;&#x20AC;</a>'))).toBe('<&>"\'A€');
  });

  test('keeps CDATA content literally', () => {
    expect(textOf(parseXml('<a><![CDATA[x<y&amp;]]></a>'))).toBe('x<y&amp;');
  });

  test('accepts element names that are JavaScript object keys', () => {
    const el = parseXml('<constructor><__proto__ toString="1"/><prototype/></constructor>');
    expect(el.local).toBe('constructor');
    expect(innerXml(el)).toBe('<__proto__ toString="1"/><prototype/>');
  });

  test('refuses a DOCTYPE with XML_FORBIDDEN', () => {
    expect(code(() => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'))).toBe('XML_FORBIDDEN');
  });

  test('refuses a processing instruction with XML_FORBIDDEN', () => {
    expect(code(() => parseXml('<a><?php echo 1; ?></a>'))).toBe('XML_FORBIDDEN');
  });

  test('refuses an XML declaration that is not first', () => {
    expect(code(() => parseXml('<a/><?xml version="1.0"?>'))).toBe('XML_FORBIDDEN');
  });

  test('refuses an undefined entity', () => {
    expect(code(() => parseXml('<a>&nbsp;</a>'))).toBe('XML_PARSE');
  });

  test('refuses an unbound prefix', () => {
    expect(code(() => parseXml('<x:a/>'))).toBe('XML_PARSE');
  });

  test('refuses mismatched tags', () => {
    expect(code(() => parseXml('<a><b></a>'))).toBe('XML_PARSE');
  });

  test('refuses two root elements', () => {
    expect(code(() => parseXml('<a/><b/>'))).toBe('XML_PARSE');
  });

  test('refuses nesting deeper than maxDepth', () => {
    expect(code(() => parseXml(`${'<a>'.repeat(11)}${'</a>'.repeat(11)}`, { maxDepth: 10 }))).toBe(
      'XML_PARSE',
    );
    expect(parseXml(`${'<a>'.repeat(10)}${'</a>'.repeat(10)}`, { maxDepth: 10 }).local).toBe('a');
  });

  test('refuses a document longer than maxLength', () => {
    expect(code(() => parseXml('<a>xxxxxxxxxx</a>', { maxLength: 10 }))).toBe('XML_PARSE');
  });

  test('reads the xml:lang attribute in the XML namespace', () => {
    const el = parseXml('<m xml:lang="en">x</m>');
    expect(el.attributes[0]).toMatchObject({
      local: 'lang',
      namespace: 'http://www.w3.org/XML/1998/namespace',
    });
  });
});

describe('innerXml', () => {
  test('pushes namespace declarations of ancestors down onto each child', () => {
    const reply = parseXml(
      '<rpc-reply xmlns="urn:nc" xmlns:if="urn:if"><data><if:interfaces><if:name>x</if:name></if:interfaces><top/></data></rpc-reply>',
    );
    const data = childElement(reply, 'data')!;
    expect(innerXml(data)).toBe(
      '<if:interfaces xmlns="urn:nc" xmlns:if="urn:if"><if:name>x</if:name></if:interfaces><top xmlns="urn:nc" xmlns:if="urn:if"/>',
    );
  });

  test('keeps a child’s own declaration over the inherited one', () => {
    const el = parseXml('<r xmlns="urn:a"><c xmlns="urn:b"/></r>');
    expect(innerXml(el)).toBe('<c xmlns="urn:b"/>');
  });

  test('keeps prefixes used only inside values bound', () => {
    const el = parseXml('<r xmlns:ianaift="urn:iana"><d><type>ianaift:ethernetCsmacd</type></d></r>');
    const reparsed = parseXml(innerXml(childElement(el, 'd')!));
    expect(reparsed.scope.get('ianaift')).toBe('urn:iana');
  });

  test('re-escapes text and attribute values', () => {
    const el = parseXml('<r><a v="&quot;&lt;">&lt;&amp;</a></r>');
    expect(innerXml(el)).toBe('<a v="&#34;&#60;">&lt;&amp;</a>');
  });
});

describe('outerXml', () => {
  test('declares the in-scope namespaces on the element itself', () => {
    const el = parseXml('<r xmlns:p="urn:p"><p:a/></r>');
    expect(outerXml(childElement(el, 'a')!)).toBe('<p:a xmlns:p="urn:p"/>');
  });
});

const nameArb = fc.constantFrom('a', 'b', 'x:c', 'constructor', 'data');
const textArb = fc.string({ maxLength: 8 });
interface Tree {
  name: string;
  text: string;
  attr: string;
  children: Tree[];
}
function treeOfDepth(depth: number): fc.Arbitrary<Tree> {
  const children: fc.Arbitrary<Tree[]> =
    depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 3 });
  return fc.record({ name: nameArb, text: textArb, attr: textArb, children });
}
const treeArb = treeOfDepth(3);

function render(t: Tree): string {
  return `<${t.name} v="${escapeXmlAttribute(t.attr)}">${escapeXmlText(t.text)}${t.children.map(render).join('')}</${t.name}>`;
}

describe('properties', () => {
  test('serializing a parsed tree and parsing again gives the same serialization', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const wrapped = `<root xmlns="urn:r" xmlns:x="urn:x">${render(tree).replace(/[\uD800-\uDFFF\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')}</root>`;
        let first: string;
        try {
          first = innerXml(parseXml(wrapped));
        } catch (error) {
          // Strings fast-check invents may hold characters XML 1.0 forbids; only our error is allowed.
          expect(NetconfError.isInstance(error)).toBe(true);
          return;
        }
        expect(innerXml(parseXml(`<root>${first}</root>`))).toBe(first);
      }),
    );
  });

  test('any input either parses or throws NetconfError', () => {
    const tokens = fc.constantFrom(
      '<',
      '>',
      '/',
      'a',
      '=',
      '"',
      '&',
      ';',
      '!',
      '?',
      '[',
      ']',
      '-',
      ' ',
      'xmlns',
      ':',
      '#',
    );
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 60 }), (parts) => {
        try {
          parseXml(parts.join(''));
        } catch (error) {
          expect(NetconfError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('arbitrary strings either parse or throw NetconfError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        try {
          parseXml(text);
        } catch (error) {
          expect(NetconfError.isInstance(error)).toBe(true);
        }
      }),
    );
  });
});
