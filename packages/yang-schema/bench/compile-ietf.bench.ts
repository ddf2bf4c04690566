import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { compileSchema, loadModules, parseModule } from '../src/index';

const corpusDir = path.resolve(__dirname, '../../../yang/corpus');

/**
 * The IETF part of the corpus that libyang accepts, as one module set. Left out: the older
 * ietf-yang-library revision (one revision per module can be implemented) and ietf-tls-client, which
 * yanglint rejects when loaded with the rest (it needs `-F` for features of import-only modules).
 */
export const ietfFiles = readFileSync(path.join(corpusDir, 'INDEX.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter(
    (r) =>
      (r[0] ?? '').startsWith('ietf/') &&
      r[2] === 'module' &&
      (r[6] ?? '').startsWith('yes') &&
      !(r[0] ?? '').includes('ietf-yang-library@2016') &&
      !(r[0] ?? '').includes('ietf-tls-client@'),
  )
  .map((r) => path.join(corpusDir, r[0] ?? ''));

const { parsed, implemented } = await loadModules({
  paths: [corpusDir],
  modules: ietfFiles,
  standardModules: false,
});
const texts = parsed.map((p) => ({ text: p.source, file: p.file }));

afterAll(() => {
  const t0 = performance.now();
  const before = process.memoryUsage().heapUsed;
  const tree = compileSchema(parsed, { implemented });
  const ms = performance.now() - t0;
  const heap = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  let nodes = 0;
  for (const _ of tree) nodes++;
  console.log(
    `IETF corpus: ${ietfFiles.length} modules named, ${parsed.length} files in the set, ${nodes} schema nodes; ` +
      `one compile ${ms.toFixed(0)} ms, heap growth ${heap.toFixed(1)} MiB`,
  );
});

describe('IETF corpus', () => {
  bench(
    'parse only (baseline)',
    () => {
      for (const t of texts) parseModule(t.text, t.file === undefined ? {} : { file: t.file });
    },
    { iterations: 5, warmupIterations: 1, time: 0 },
  );

  bench(
    'compile parsed modules',
    () => {
      compileSchema(parsed, { implemented });
    },
    { iterations: 5, warmupIterations: 1, time: 0 },
  );

  bench(
    'parse + compile',
    () => {
      const fresh = texts.map((t) => parseModule(t.text, t.file === undefined ? {} : { file: t.file }));
      compileSchema(fresh, { implemented });
    },
    { iterations: 5, warmupIterations: 1, time: 0 },
  );
});
