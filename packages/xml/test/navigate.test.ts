import { describe, expect, test } from 'vitest';
import { childElement, childElements, readXmlDocument, textOf } from '../src/index.js';

const doc = readXmlDocument('<r xmlns="urn:r" xmlns:o="urn:o">a<x>1</x><o:x>2</o:x>b<y/><x>3</x></r>');

describe('childElements', () => {
  test('lists every child element without a name', () => {
    expect(childElements(doc).map((e) => e.name)).toEqual(['x', 'o:x', 'y', 'x']);
  });

  test('lists the child elements with a local name, in any namespace or in one', () => {
    expect(childElements(doc, 'x').map(textOf)).toEqual(['1', '2', '3']);
    expect(childElements(doc, 'x', 'urn:o').map(textOf)).toEqual(['2']);
  });
});

describe('childElement', () => {
  test('gives the first matching child element, or undefined', () => {
    expect(textOf(childElement(doc, 'x')!)).toBe('1');
    expect(textOf(childElement(doc, 'x', 'urn:o')!)).toBe('2');
    expect(childElement(doc, 'z')).toBeUndefined();
  });
});

describe('textOf', () => {
  test('joins the character data directly inside an element', () => {
    expect(textOf(doc)).toBe('ab');
  });
});
