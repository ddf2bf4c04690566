import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** True when the run should rewrite its figures in the gateway's README (`UPDATE_FIGURES=1`). */
export const updateFigures = process.env.UPDATE_FIGURES === '1';

/**
 * Replaces what stands between `<!-- figures:KEY:start -->` and `<!-- figures:KEY:end -->` in the
 * gateway's README with `markdown`.
 *
 * @throws when the README lacks the markers: the figures have a place of their own in its text.
 */
export function writeReadmeFigures(key: string, markdown: string): void {
  const text = readFileSync(README, 'utf8');
  const start = `<!-- figures:${key}:start -->`;
  const end = `<!-- figures:${key}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`README.md has no ${start} ... ${end} block`);
  writeFileSync(README, `${text.slice(0, i + start.length)}\n${markdown.trim()}\n${text.slice(j)}`);
}
