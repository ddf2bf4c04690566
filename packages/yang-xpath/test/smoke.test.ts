import { expect, test } from 'vitest';
import { compileXPath, parseXmlForXPath, xmlNavigator } from '../src/index.js';

test('smoke', () => {
  const doc = parseXmlForXPath('<a xmlns="urn:a"><b>1</b><b>2</b><c x="y">t</c></a>');
  const p = { p: 'urn:a' };
  expect(compileXPath('count(//p:b)', { prefixes: p }).evaluate(doc, xmlNavigator)).toBe(2);
  expect(compileXPath('sum(/p:a/p:b) + 1', { prefixes: p }).evaluate(doc, xmlNavigator)).toBe(4);
  expect(compileXPath('string(/p:a/p:c/@x)', { prefixes: p }).evaluate(doc, xmlNavigator)).toBe('y');
  expect(
    compileXPath('/p:a/p:b[. = 2]/preceding-sibling::p:b', { prefixes: p }).evaluateString(doc, xmlNavigator),
  ).toBe('1');
});
