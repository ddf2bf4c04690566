import { describe, expect, test } from 'vitest';
import { DEFAULT_XML_LIMITS, readXml, readXmlDocument, streamXml } from '../src/index.js';
import { xmlErrorOf } from './helpers.js';

const nested = (depth: number) => `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;

describe('limits', () => {
  test('accepts nesting up to maxDepth and refuses one level more', () => {
    expect(readXmlDocument(nested(10), { maxDepth: 10 }).local).toBe('a');
    expect(xmlErrorOf(() => readXmlDocument(nested(11), { maxDepth: 10 }))).toMatchObject({
      code: 'XML_LIMIT_EXCEEDED',
      limit: 'maxDepth',
      column: 31,
    });
  });

  test('counts an empty-element tag as a level of nesting', () => {
    expect(xmlErrorOf(() => readXmlDocument('<a><b/></a>', { maxDepth: 1 })).limit).toBe('maxDepth');
  });

  test('refuses text longer than maxSize before reading it', () => {
    expect(xmlErrorOf(() => readXml('<a>0123456789</a>', { maxSize: 10 }))).toMatchObject({
      code: 'XML_LIMIT_EXCEEDED',
      limit: 'maxSize',
      line: undefined,
    });
    expect(readXml('<a>0123456789</a>', { maxSize: 17 })).toHaveLength(1);
  });

  test('refuses text in pieces once the pieces so far are longer than maxSize, before the rest is read', () => {
    const opened: string[] = [];
    const sink = {
      open: (e: { local: string }) => {
        opened.push(e.local);
        return 'stream' as const;
      },
      text() {},
      close() {},
    };
    function* pieces() {
      yield '<a><b/>';
      yield '<c/>0123456789';
      throw new Error('the piece after the limit was asked for');
    }
    expect(xmlErrorOf(() => streamXml(pieces(), sink, { maxSize: 12 }))).toMatchObject({
      code: 'XML_LIMIT_EXCEEDED',
      limit: 'maxSize',
    });
    expect(opened).toEqual(['a']); // <b/> may go on in the next piece: it waits
    expect(() => streamXml(['<a>0123456789', '</a>'], sink, { maxSize: 17 })).not.toThrow();
  });

  test('refuses more attributes on one element than maxAttributes, declarations included', () => {
    expect(readXmlDocument('<a xmlns="urn:a" b="1"/>', { maxAttributes: 2 }).attributes).toHaveLength(1);
    expect(
      xmlErrorOf(() => readXmlDocument('<a xmlns="urn:a" b="1" c="2"/>', { maxAttributes: 2 })),
    ).toMatchObject({
      limit: 'maxAttributes',
      column: 24,
    });
  });

  test('refuses more elements in the text than maxElements', () => {
    expect(readXml('<a/><b/><c/>', { maxElements: 3 })).toHaveLength(3);
    expect(xmlErrorOf(() => readXml('<a/><b/><c/><d/>', { maxElements: 3 })).limit).toBe('maxElements');
  });

  test('counts streamed and skipped elements against maxElements too', () => {
    const sink = { open: () => 'skip' as const, text() {}, close() {} };
    expect(xmlErrorOf(() => streamXml('<a><b/><c/></a>', sink, { maxElements: 2 })).limit).toBe(
      'maxElements',
    );
  });

  test('refuses the joined text of one element longer than maxTextLength', () => {
    expect(readXmlDocument('<a>12345</a>', { maxTextLength: 5 }).children).toEqual(['12345']);
    expect(xmlErrorOf(() => readXmlDocument('<a>123<!-- -->456</a>', { maxTextLength: 5 })).limit).toBe(
      'maxTextLength',
    );
    expect(xmlErrorOf(() => readXmlDocument('<a><![CDATA[123456]]></a>', { maxTextLength: 5 })).limit).toBe(
      'maxTextLength',
    );
  });

  test('refuses an attribute value longer than maxTextLength', () => {
    expect(xmlErrorOf(() => readXmlDocument('<a v="123456"/>', { maxTextLength: 5 })).limit).toBe(
      'maxTextLength',
    );
  });

  test('has safe defaults for every limit', () => {
    expect(DEFAULT_XML_LIMITS).toEqual({
      maxSize: 64 * 1024 * 1024,
      maxDepth: 256,
      maxAttributes: 256,
      maxElements: 2 * 1024 * 1024,
      maxTextLength: 16 * 1024 * 1024,
    });
    expect(xmlErrorOf(() => readXmlDocument(nested(257))).limit).toBe('maxDepth');
  });
});
