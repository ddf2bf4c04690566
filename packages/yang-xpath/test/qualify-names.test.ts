import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseXPath, qualifyNames } from '../src/index.js';

describe('qualifyNames (RFC 7951 names in XPath)', () => {
  test('writes the module of the first step on the unprefixed steps after it', () => {
    expect(qualifyNames('/ex:top/list/leaf')).toBe('/ex:top/ex:list/ex:leaf');
  });

  test('follows a change of module to the steps after it', () => {
    expect(qualifyNames('/a:top/b:aug/x')).toBe('/a:top/b:aug/b:x');
  });

  test('qualifies the relative paths of a predicate from the step it belongs to', () => {
    expect(qualifyNames("/ex:event[severity='major' and count(info/x) > 1]")).toBe(
      "/ex:event[ex:severity='major' and count(ex:info/ex:x) > 1]",
    );
  });

  test('keeps string literals, written axes, // and .. as written', () => {
    expect(qualifyNames("/m:a//b[.='c/d']/../child::e")).toBe("/m:a//m:b[.='c/d']/../child::m:e");
  });

  test('leaves names whose module the expression does not tell', () => {
    expect(qualifyNames('/top/x')).toBe('/top/x');
    expect(qualifyNames('/m:a/*/b')).toBe('/m:a/*/b');
    expect(qualifyNames('/m:a/@attr')).toBe('/m:a/@attr');
  });

  test('returns text that is not XPath as is', () => {
    expect(qualifyNames('/m:a[')).toBe('/m:a[');
  });

  test('gives an expression that parses, for any qualified path', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,5}$/);
    const path = fc.tuple(name, fc.array(fc.tuple(fc.option(name), name), { maxLength: 5 }));
    fc.assert(
      fc.property(path, ([module, rest]) => {
        const text = `/${module}:top${rest.map(([m, n]) => `/${m === null ? '' : `${m}:`}${n}`).join('')}`;
        const qualified = qualifyNames(text);
        expect(() => parseXPath(qualified)).not.toThrow();
        expect(qualified.split('/').every((step) => step === '' || step.includes(':'))).toBe(true);
      }),
    );
  });
});
