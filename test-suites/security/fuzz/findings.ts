import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a fuzz target may find: the properties of the run, each one a kind. */
export type FindingKind = 'crash' | 'hang' | '5xx' | 'no-answer' | 'no-errors-body' | 'datastore-changed';

/** One input that broke a property, with what happened. */
export interface Finding {
  readonly target: string;
  readonly kind: FindingKind;
  /** Groups findings of one cause: the error's class and message without numbers, or the kind. */
  readonly signature: string;
  readonly detail: string;
  /** The input as the target takes it (a JSON value). */
  readonly input: unknown;
}

/** The folder of the corpus: one folder per target, one JSON file per finding kept. */
export const CORPUS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../corpus');

/** The signature of an error: class, message with numbers and quoted text blurred, first frame. */
export function errorSignature(error: unknown): string {
  if (!(error instanceof Error)) return `thrown ${typeof error}: ${String(error).slice(0, 80)}`;
  const message = error.message
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 120);
  const frame = error.stack
    ?.split('\n')
    .find((l) => /^\s+at /.test(l) && !l.includes('node:') && !l.includes('/fuzz/'))
    ?.trim()
    .replace(/^at /, '')
    .replace(/\(.*\/(packages|apps)\//, '($1/')
    .replace(/:\d+:\d+\)$/, ')');
  return `${error.name}: ${message}${frame === undefined ? '' : ` at ${frame}`}`;
}

/** Writes `finding` as a corpus file (named by its signature) unless one exists; returns its path. */
export function keepInCorpus(finding: Finding): string {
  const dir = path.join(CORPUS_DIR, finding.target);
  mkdirSync(dir, { recursive: true });
  const id = createHash('sha256').update(`${finding.kind} ${finding.signature}`).digest('hex').slice(0, 12);
  const file = path.join(dir, `${finding.kind}-${id}.json`);
  const record = {
    target: finding.target,
    kind: finding.kind,
    found: finding.detail.slice(0, 400),
    input: finding.input,
  };
  try {
    readFileSync(file);
  } catch {
    writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  }
  return path.relative(path.resolve(CORPUS_DIR, '..'), file);
}

/** A kept finding: the target it is replayed against and its input. */
export interface CorpusEntry {
  readonly file: string;
  readonly target: string;
  readonly kind: FindingKind;
  readonly input: unknown;
}

/** Every corpus file, by target folder. */
export function readCorpus(): CorpusEntry[] {
  let targets: string[];
  try {
    targets = readdirSync(CORPUS_DIR);
  } catch {
    return [];
  }
  return targets.flatMap((target) =>
    readdirSync(path.join(CORPUS_DIR, target))
      .filter((f) => f.endsWith('.json'))
      .map((f) => {
        const record = JSON.parse(readFileSync(path.join(CORPUS_DIR, target, f), 'utf8')) as CorpusEntry;
        return { file: `${target}/${f}`, target, kind: record.kind, input: record.input };
      }),
  );
}
