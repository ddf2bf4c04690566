import { describe, expect, test } from 'vitest';
import { escapeXmlAttribute, escapeXmlText, replaceNonXmlChars } from '../src/index.js';
import { xmlErrorOf } from './helpers.js';

describe('escapeXmlText', () => {
  test('escapes "&", "<" and ">"', () => {
    expect(escapeXmlText('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
  });

  test('writes CR as a character reference and leaves TAB, LF and quotes as they are', () => {
    expect(escapeXmlText('1\r\n2\t"\'')).toBe('1&#13;\n2\t"\'');
  });

  test('returns a string needing nothing unchanged, supplementary characters included', () => {
    const s = 'plain text é 😀';
    expect(escapeXmlText(s)).toBe(s);
  });

  test('throws XML_INVALID_CHAR for a character XML 1.0 cannot carry', () => {
    for (const bad of ['\u0000', 'a\u0008', '\uFFFF', 'x\uDC00', '\uD83D']) {
      expect(xmlErrorOf(() => escapeXmlText(bad)).code).toBe('XML_INVALID_CHAR');
    }
  });
});

describe('escapeXmlAttribute', () => {
  test('escapes "&", "<", ">" and double quotes', () => {
    expect(escapeXmlAttribute(`<"a" & 'b'>`)).toBe(`&lt;&quot;a&quot; &amp; 'b'&gt;`);
  });

  test('writes TAB, LF and CR as character references', () => {
    expect(escapeXmlAttribute('1\t2\n3\r')).toBe('1&#9;2&#10;3&#13;');
  });

  test('throws XML_INVALID_CHAR for a character XML 1.0 cannot carry', () => {
    expect(xmlErrorOf(() => escapeXmlAttribute('\u001B[0m'))).toMatchObject({
      code: 'XML_INVALID_CHAR',
      line: undefined,
    });
  });
});

describe('replaceNonXmlChars', () => {
  test('replaces each character XML 1.0 cannot carry with U+FFFD and keeps the rest', () => {
    expect(replaceNonXmlChars('a\u0000b\uD800c😀\uFFFE')).toBe('a\uFFFDb\uFFFDc😀\uFFFD');
  });

  test('returns a string that needs nothing unchanged', () => {
    expect(replaceNonXmlChars('a\tb\r\n')).toBe('a\tb\r\n');
  });
});
