import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseModule } from '../src/parser/parse-module';
import type { ParsedModule } from '../src/parser/statement';

/** The repository's YANG folder: the RFC 8040 examples and the module corpus. */
export const sharedYang = path.resolve(__dirname, '../../../yang');
/** The module corpus. */
export const corpusDir = path.join(sharedYang, 'corpus');

/** Parses a file of the repository's YANG folder (path relative to it). */
export function parseShared(relative: string): ParsedModule {
  const file = path.join(sharedYang, relative);
  return parseModule(readFileSync(file, 'utf8'), { file: relative });
}
