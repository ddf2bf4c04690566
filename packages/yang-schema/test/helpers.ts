import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseModule } from '../src/parser/parse-module';
import type { ParsedModule } from '../src/parser/statement';

/** The shared YANG folder beside the repository root. */
export const sharedYang = path.resolve(__dirname, '../../../../shared/yang');
/** The module corpus. */
export const corpusDir = path.join(sharedYang, 'corpus');

/** Parses a file of the shared YANG folder (path relative to it). */
export function parseShared(relative: string): ParsedModule {
  const file = path.join(sharedYang, relative);
  return parseModule(readFileSync(file, 'utf8'), { file: relative });
}
