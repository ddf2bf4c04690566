import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileSchema, loadModules } from '../src/index';
import { corpusDir } from './helpers';

/** Modules INDEX.tsv marks as accepted by yanglint (as is, with -i or with -F). */
const accepted = readFileSync(path.join(corpusDir, 'INDEX.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter((row) => row[2] === 'module' && (row[6] ?? '').startsWith('yes'))
  .map((row) => row[0] ?? '');

/** Modules libyang rejects for what INDEX.md lists as libyang limitations. */
const rejectedByLibyang = readFileSync(path.join(corpusDir, 'INDEX.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter((row) => row[2] === 'module' && (row[6] ?? '').startsWith('NO'))
  .map((row) => row[0] ?? '');

describe('corpus modules accepted by libyang', () => {
  test('the index lists the accepted modules', () => {
    expect(accepted.length).toBe(418);
  });

  test.each(accepted)('compiles %s with all its imports', async (file) => {
    const { parsed, implemented } = await loadModules({
      paths: [corpusDir],
      modules: [path.join(corpusDir, file)],
      standardModules: false,
    });
    const tree = compileSchema(parsed, { implemented });
    const name = parsed[0]?.name ?? '';
    expect(tree.moduleByName(name)?.implemented).toBe(true);
  });
});

describe('corpus modules libyang rejects for its own limitations', () => {
  test.each(rejectedByLibyang)('compiles %s', async (file) => {
    const { parsed, implemented } = await loadModules({
      paths: [corpusDir],
      modules: [path.join(corpusDir, file)],
      standardModules: false,
    });
    expect(compileSchema(parsed, { implemented }).modules.length).toBeGreaterThan(0);
  });
});
