import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md');
const SECTION = '## Security figures';
const INTRO = [
  SECTION,
  '',
  'Written by `test-suites/security` itself: `UPDATE_FIGURES=1 pnpm --filter @yangkit/test-security test`.',
  'Each block is replaced by the run of the file that measures it.',
  '',
].join('\n');

/** True when the run should rewrite the figures in `test-suites/README.md`. */
export const updateFigures = process.env.UPDATE_FIGURES === '1';

/**
 * Replaces (or appends) the block `key` of the "Security figures" section of
 * `test-suites/README.md` with `markdown`, leaving other blocks and sections alone.
 */
export function writeFigures(key: string, markdown: string): void {
  let text: string;
  try {
    text = readFileSync(README, 'utf8');
  } catch {
    text = '# yangkit test suites\n\n';
  }
  if (!text.includes(SECTION)) text = `${text.trimEnd()}\n\n${INTRO}`;
  const start = `<!-- figures:${key}:start -->`;
  const end = `<!-- figures:${key}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(README, `${text.trimEnd()}\n`);
}
