import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

/**
 * Turns a README example into a runnable body: the import of the package becomes a destructuring
 * of `lib`, and each `expr; // => value` line (or `expr;` followed by a `// => value` line) becomes
 * a checked assertion.
 */
function compile(code: string, packageName: string): { body: string; assertions: number } {
  const from = packageName.replace(/[/.]/g, '\\$&');
  const imports = new RegExp(`import\\s*\\{([\\s\\S]*?)\\}\\s*from '${from}';`, 'g');
  const lines = code.replace(imports, 'const {$1} = lib;').split('\n');
  const out: string[] = [];
  let assertions = 0;
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

/**
 * Runs the ```js examples of a package README as tests against `lib` (the package's sources),
 * checking every value they show; at least `minimum` examples must be there.
 */
export function testReadmeExamples(
  readmePath: string,
  packageName: string,
  lib: object,
  minimum: number,
): void {
  const readme = readFileSync(readmePath, 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

  test('the README has runnable examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(minimum);
  });

  test.each(blocks.map((code, i) => [i + 1, code] as const))(
    'README example %i runs and gives the values it shows',
    (_, code) => {
      const { body, assertions } = compile(code, packageName);
      let checked = 0;
      const check = (actual: unknown, expected: unknown) => {
        checked++;
        expect(actual).toEqual(expected);
      };
      new Function('lib', 'check', body)(lib, check);
      expect(checked).toBe(assertions);
    },
  );
}
