import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import * as lib from '../src/index.js';

const readme = readFileSync(path.resolve(__dirname, '../README.md'), 'utf8');
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

/**
 * Turns a README example into a runnable body: the package import becomes a destructuring of
 * the sources, and each `expr; // => value` line (or `expr;` followed by a `// => value` line)
 * becomes a checked assertion.
 */
function compile(code: string): { body: string; assertions: number } {
  let assertions = 0;
  const lines = code
    .replace(/import\s*\{([\s\S]*?)\}\s*from '@yangkit\/xml';/g, 'const {$1} = lib;')
    .split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const inline = /^(\s*)(.*?);\s*\/\/ => (.*)$/.exec(line);
    const next = /^\s*\/\/ => (.*)$/.exec(lines[i + 1] ?? '');
    if (inline !== null) {
      assertions++;
      out.push(`${inline[1]}check(${inline[2]}, ${inline[3]});`);
    } else if (next !== null && line.endsWith(';')) {
      assertions++;
      out.push(`check(${line.slice(0, -1)}, ${next[1]});`);
      i++;
    } else out.push(line);
  }
  return { body: out.join('\n'), assertions };
}

test('the README has runnable examples', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(6);
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
