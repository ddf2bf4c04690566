import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import * as lib from '../src/index.js';

const readme = readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

/**
 * Turns a README example into a runnable body: the package import becomes a destructuring of
 * the sources, and each `expr; // => value` line becomes a checked assertion.
 */
function compile(code: string): { body: string; assertions: number } {
  let assertions = 0;
  const body = code
    .replace(/import\s*\{([\s\S]*?)\}\s*from '@yangkit\/restconf-uri';/g, 'const {$1} = lib;')
    .split('\n')
    .map((line) => {
      const m = /^(\s*)(.*?);\s*\/\/ => (.*)$/.exec(line);
      if (m === null) return line;
      assertions++;
      return `${m[1]}check(${m[2]}, ${m[3]});`;
    })
    .join('\n');
  return { body, assertions };
}

test('the README has runnable examples', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(4);
});

test.each(blocks.map((code, i) => [i + 1, code] as const))(
  'README example %i runs and gives the values it shows',
  (_, code) => {
    const { body, assertions } = compile(code);
    let checked = 0;
    const check = (actual: unknown, expected: unknown) => {
      checked++;
      expect(actual).toEqual(expected);
    };
    new Function('lib', 'check', body)(lib, check);
    expect(checked).toBe(assertions);
  },
);
