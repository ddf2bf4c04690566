import { describe, expect, test } from 'vitest';
import { readXml, readXmlDocument, XmlError } from '../src/index.js';
import { xmlErrorOf } from './helpers.js';

const refused = (text: string) => xmlErrorOf(() => readXmlDocument(text));

describe('XmlError', () => {
  test('names the line and column of the problem in its fields and message', () => {
    const e = refused('<a>\n  <b>\n</a>');
    expect([e.code, e.line, e.column, e.offset]).toEqual(['XML_MALFORMED', 3, 1, 10]);
    expect(e.message).toBe('expected </b>, found </a> (line 3, column 1)');
    expect(e.reason).toBe('expected </b>, found </a>');
  });

  test('counts CR LF and a lone CR as one line end, and a supplementary character as one column', () => {
    expect([refused('<a>\r\n\r<b 😀>').line, refused('<a>😀&x</a>').column]).toEqual([3, 5]);
  });

  test('is recognized by isInstance, also across copies of the package', () => {
    const e = refused('<a>');
    expect(XmlError.isInstance(e)).toBe(true);
    expect(XmlError.isInstance(new Error('x'))).toBe(false);
    expect(XmlError.isInstance({ [Symbol.for('@yangkit/xml.XmlError')]: true })).toBe(true);
  });
});

describe('not well-formed', () => {
  test.each([
    ['an unclosed element', '<a>\n<b>', 'element <b> is not closed'],
    ['a mismatched end tag', '<a><b></a>', 'expected </b>, found </a>'],
    ['an end tag that only starts like the open one', '<ab></abc>', 'expected </ab>, found </abc>'],
    ['an end tag without a start tag', '<a/></b>', 'end tag </b> without a start tag'],
    ['an unquoted attribute value', '<a b=1/>', 'value of attribute "b" is not quoted'],
    ['an attribute without a value', '<a b/>', 'attribute "b" has no value'],
    [
      'attributes without whitespace between them',
      '<a b="1"c="2"/>',
      'expected whitespace, ">" or "/>" in <a>',
    ],
    ['a repeated attribute', '<a b="1" b="2"/>', 'attribute "b" is repeated'],
    [
      'two attributes with the same expanded name',
      '<a xmlns:p="urn:x" xmlns:q="urn:x" p:b="1" q:b="2"/>',
      'attribute {urn:x}b is repeated',
    ],
    ['"<" in an attribute value', '<a b="<"/>', '"<" in an attribute value'],
    ['text outside the document element', 'hello', 'text outside the document element'],
    ['"]]>" in text', '<a>]]></a>', '"]]>" in text'],
    ['a bare "&"', '<a>fish & chips</a>', '"&" not starting a reference'],
    ['an entity reference without ";"', '<a>&amp</a>', 'entity reference without ";"'],
    ['a malformed character reference', '<a>&#xZ;</a>', 'malformed character reference'],
    ['"--" inside a comment', '<a><!-- a -- b --></a>', '"--" inside a comment'],
    ['a comment ending in "-"', '<a><!-- a ---></a>', '"--" inside a comment'],
    ['an unterminated comment', '<a><!-- x</a>', 'unterminated comment'],
    ['an unterminated CDATA section', '<a><![CDATA[x</a>', 'unterminated CDATA section'],
    [
      'a CDATA section outside the element',
      '<![CDATA[x]]><a/>',
      'CDATA section outside the document element',
    ],
    ['a name with two colons', '<a:b:c/>', '"a:b:c" is not a qualified name'],
    ['a name ending in a colon', '<a: />', '"a:" is not a qualified name'],
    ['a malformed XML declaration', '<?xml version="2"?><a/>', 'malformed XML declaration'],
    ['no element at all', '<!-- -->', 'no element in the document'],
    ['two top-level elements in a document', '<a/><b/>', 'a second element at the top of the document'],
    ['an unterminated start tag', '<a b="1"', 'unterminated start tag <a>'],
  ])('refuses %s', (_, text, reason) => {
    const e = refused(text);
    expect([e.code, e.reason]).toEqual(['XML_MALFORMED', reason]);
  });

  test('refuses input that is not a string', () => {
    expect(xmlErrorOf(() => readXml(42 as unknown as string)).code).toBe('XML_MALFORMED');
  });
});

describe('forbidden constructs', () => {
  test.each([
    ['a DOCTYPE', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['a markup declaration', '<!ENTITY x "y"><a/>'],
    ['a processing instruction', '<a><?php echo 1; ?></a>'],
    ['an XML declaration that is not first', '<a/><?xml version="1.0"?>'],
    ['a processing instruction before the element', '<?xml-stylesheet href="x"?><a/>'],
    ['a reference to an undeclared entity', '<a>&nbsp;</a>'],
    ['a reference to an undeclared entity in an attribute', '<a b="&lol;"/>'],
  ])('refuses %s with XML_FORBIDDEN', (_, text) => {
    expect(refused(text).code).toBe('XML_FORBIDDEN');
  });
});

describe('characters outside XML 1.0', () => {
  test.each([
    ['a control character in text', '<a>\u0001</a>', 4],
    ['U+FFFE in an attribute value', '<a b="\uFFFE"/>', 7],
    ['a lone surrogate in text', '<a>x\uD800y</a>', 5],
    ['a lone surrogate in a name', '<a\uD800/>', 3],
    ['a control character in a comment', '<a><!--\u0000--></a>', 8],
    ['a control character in a CDATA section', '<a><![CDATA[\u001F]]></a>', 13],
    ['a control character between attributes', '<a\u0007 b="1"/>', 3],
    ['a character reference to NUL', '<a>&#0;</a>', 4],
    ['a character reference to a surrogate', '<a>&#xD800;</a>', 4],
    ['a character reference beyond U+10FFFF', '<a>&#x110000;</a>', 4],
  ])('refuses %s with XML_INVALID_CHAR at its column', (_, text, column) => {
    const e = refused(text);
    expect([e.code, e.column]).toEqual(['XML_INVALID_CHAR', column]);
  });
});

describe('namespace errors', () => {
  test.each([
    ['an unbound element prefix', '<p:a/>'],
    ['an unbound attribute prefix', '<a p:b="1"/>'],
    ['undeclaring a prefix', '<a xmlns:p=""/>'],
    ['declaring the xmlns prefix', '<a xmlns:xmlns="urn:x"/>'],
    ['binding xml to another namespace', '<a xmlns:xml="urn:x"/>'],
    ['binding another prefix to the xml namespace', '<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>'],
    ['an element with the xmlns prefix', '<xmlns:a/>'],
  ])('refuses %s with XML_UNBOUND_PREFIX', (_, text) => {
    expect(refused(text).code).toBe('XML_UNBOUND_PREFIX');
  });

  test('names the prefix that is not declared', () => {
    expect(refused('<a>\n <p:b/></a>')).toMatchObject({
      reason: 'the prefix "p" is not declared',
      line: 2,
      column: 3,
    });
  });
});
