import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

/**
 * Runs the TypeScript and JavaScript examples of a README from the README's own text, so that an
 * example cannot drift from the code: each fenced `ts` or `js` block becomes a module, run from
 * the repository root, and its result comments become assertions:
 *
 * - `expression; // => value` checks that the expression equals the value (vitest's `toEqual`);
 * - `expression; // throws text` checks that it throws (or rejects with) an error whose name,
 *   message, code or error-tag contains the text.
 *
 * Other comments are prose. A block that goes on with the names of the block before it follows an
 * HTML comment `<!-- continues -->`; `@yangkit/...` imports load the workspace's sources.
 */

/** The repository root, where the examples run (they name folders such as `yang/`). */
export const REPO_ROOT = path.resolve(__dirname, '..');

/** A fenced example of a README. */
export interface ReadmeExample {
  /** `README.md:LINE` of the opening fence. */
  readonly name: string;
  /** The code: the block itself, after the blocks it continues. */
  readonly code: string;
  /** True when the next block continues this one: it runs as part of that one. */
  readonly continued: boolean;
}

/** The `ts` and `js` blocks of a README, in order. */
export function readmeExamples(readmeFile: string): ReadmeExample[] {
  const lines = readFileSync(readmeFile, 'utf8').split('\n');
  const examples: { name: string; code: string; continued: boolean }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|js)$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const previous = lines[before]?.trim() === '<!-- continues -->' ? examples.at(-1) : undefined;
    if (previous !== undefined) previous.continued = true;
    const code = `${previous === undefined ? '' : `${previous.code}\n`}${body.join('\n')}`;
    examples.push({ name: `${path.basename(readmeFile)}:${start + 1}`, code, continued: false });
  }
  return examples;
}

/** Text replacements (a port, a host) applied to an example before it runs. */
export type Replacements = readonly (readonly [string | RegExp, string])[];

/** Checks made by the running example (on globalThis: the example may load its own copy of this module). */
const made = Symbol.for('yangkit.readme-examples.checks');
const checksMade = globalThis as { [made]?: number };

/**
 * Runs an example as a module from the repository root and checks its result comments, every one
 * of which must be reached; resolves with the module's exports.
 */
export async function runExample(
  example: ReadmeExample,
  replacements: Replacements = [],
): Promise<Record<string, unknown>> {
  let code = example.code;
  for (const [from, to] of replacements) code = code.replaceAll(from, to);
  const { source, checks } = withChecks(resolveWorkspaceImports(code), example.name);
  const dir = mkdtempSync(path.join(tmpdir(), 'readme-example-'));
  const file = path.join(dir, 'example.ts');
  const helpers = pathToFileURL(__filename).href;
  // Aliases the examples' own names cannot clash with.
  writeFileSync(
    file,
    `import { checkValue as $$value, checkThrows as $$throws } from '${helpers}';\n${source}\n`,
  );
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  checksMade[made] = 0;
  try {
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    expect(checksMade[made], `${example.name}: result comments reached`).toBe(checks);
    return exports;
  } finally {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Checks a `// => value` comment. */
export function checkValue(actual: unknown, expected: unknown, where: string): void {
  checksMade[made] = (checksMade[made] ?? 0) + 1;
  expect(actual, where).toEqual(expected);
}

/** Checks a `// throws text` comment: "Name: message", the code or the error-tag has the text. */
export async function checkThrows(run: () => unknown, text: string, where: string): Promise<void> {
  checksMade[made] = (checksMade[made] ?? 0) + 1;
  try {
    await run();
  } catch (error) {
    const e = error as { name?: unknown; message?: unknown; code?: unknown; errorTag?: unknown };
    const said = [`${String(e.name)}: ${String(e.message)}`, e.code, e.errorTag].filter(
      (x) => x !== undefined,
    );
    expect(said.join(' '), where).toContain(text);
    return;
  }
  expect.fail(`${where}: expected an error with "${text}"`);
}

const RESULT = /^(\s*)(.*\S);\s*\/\/ (=>|throws) (.+)$/;
const STATEMENT = /^(const|let|var|import|export|return|if|for|while|throw|try|\})\b/;

/** Turns the result comments into calls of `checkValue` and `checkThrows` (imported as `$$value`, `$$throws`). */
function withChecks(code: string, name: string): { source: string; checks: number } {
  let checks = 0;
  const lines = code.split('\n').map((line, i) => {
    const m = RESULT.exec(line);
    if (m === null) return line;
    const [, indent, expression, kind, result] = m as unknown as [string, string, string, string, string];
    if (STATEMENT.test(expression))
      throw new Error(`${name}: a "// ${kind}" comment must follow an expression, not "${expression}"`);
    checks++;
    const where = JSON.stringify(`${name}, example line ${i + 1}`);
    return kind === '=>'
      ? `${indent}$$value(${expression}, ${result}, ${where});`
      : `${indent}await $$throws(async () => ${expression.replace(/^await /, '')}, ${JSON.stringify(result)}, ${where});`;
  });
  return { source: lines.join('\n'), checks };
}

/** The source entry of each workspace package export, by import specifier. */
let workspaceEntries: Map<string, string> | undefined;

function resolveWorkspaceImports(code: string): string {
  workspaceEntries ??= readWorkspaceEntries();
  return code.replace(/from '(@yangkit\/[^']+)'/g, (_, specifier: string) => {
    const entry = workspaceEntries!.get(specifier);
    if (entry === undefined) throw new Error(`no workspace package exports ${specifier}`);
    return `from '${pathToFileURL(entry).href}'`;
  });
}

function readWorkspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    for (const dir of readdirSync(path.join(REPO_ROOT, group))) {
      const root = path.join(REPO_ROOT, group, dir);
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        name: string;
        exports?: Record<string, { source?: string } | string>;
      };
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        if (typeof target === 'object' && target.source !== undefined)
          entries.set(`${manifest.name}${subpath.slice(1)}`, path.join(root, target.source));
      }
    }
  }
  return entries;
}

/** Registers one test per example of the README: it runs as written, and its result comments hold. */
export function testReadmeExamples(readmeFile: string, replacements: Replacements = []): void {
  const examples = readmeExamples(readmeFile);
  test(`${path.basename(readmeFile)} has examples`, () => {
    expect(examples.length).toBeGreaterThan(0);
  });
  for (const example of examples.filter((e) => !e.continued))
    test(`${example.name} runs as written`, async () => {
      await runExample(example, replacements);
    });
}

/** A curl command of a README and the lines of output it shows (the `# ` lines right after it). */
export interface CurlExample {
  readonly command: string;
  readonly expected: readonly string[];
}

/** The curl commands of the first `sh` block after `marker` (a heading, say) in a README. */
export function readmeCurlExamples(readmeFile: string, marker: string): CurlExample[] {
  const readme = readFileSync(readmeFile, 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)))![1]!;
  const examples: { command: string; expected: string[] }[] = [];
  let pending = '';
  // Output comments follow their command directly; a blank line ends them.
  let open = false;
  for (const line of block.split('\n')) {
    if (pending !== '' || line.startsWith('curl ')) {
      pending = pending === '' ? line : `${pending}\n${line}`;
      const quoted = (pending.match(/'/g) ?? []).length % 2 === 1;
      if (!line.endsWith('\\') && !quoted) {
        examples.push({ command: pending, expected: [] });
        pending = '';
        open = true;
      }
    } else if (line.trim() === '') open = false;
    else if (open && line.startsWith('# ')) examples.at(-1)!.expected.push(line.slice(2));
  }
  return examples;
}

/** Runs curl examples in order with `sh`, each after the replacements; each must print what it shows. */
export async function runCurlExamples(
  examples: readonly CurlExample[],
  replacements: Replacements,
): Promise<void> {
  const replace = (text: string) => replacements.reduce((t, [from, to]) => t.replaceAll(from, to), text);
  for (const { command, expected } of examples) {
    const { stdout } = await promisify(execFile)('sh', ['-c', replace(command)]);
    for (const line of expected) expect(stdout.replace(/\r/g, ''), command).toContain(replace(line));
  }
}
