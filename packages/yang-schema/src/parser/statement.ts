import type { SourceLocation } from '../errors';

/**
 * One YANG statement (RFC 7950 section 6.3): `keyword [argument] (";" / "{" *statement "}")`.
 * Extension statements keep their prefix (`rc:yang-data` has prefix `rc`, keyword `yang-data`).
 */
export interface YangStatement {
  /** The keyword without prefix. */
  readonly keyword: string;
  /** The prefix of an extension keyword (`rc` in `rc:yang-data`); absent for core statements. */
  readonly prefix?: string;
  /** The argument after string processing (quotes removed, escapes and indentation handled). */
  readonly argument?: string;
  /** Substatements in source order. */
  readonly substatements: readonly YangStatement[];
  /** Where the keyword starts. */
  readonly location: SourceLocation;
}

/** An `import` statement of a module header (RFC 7950 7.1.5). */
export interface ParsedImport {
  readonly module: string;
  readonly prefix: string;
  readonly revision?: string;
  readonly location: SourceLocation;
}

/** An `include` statement of a module header (RFC 7950 7.1.6). */
export interface ParsedInclude {
  readonly submodule: string;
  readonly revision?: string;
  readonly location: SourceLocation;
}

/** The syntax tree of one module or submodule plus the header facts the loader and compiler need. */
export interface ParsedModule {
  /** `module` or `submodule`. */
  readonly kind: 'module' | 'submodule';
  readonly name: string;
  /** Newest `revision` date, if any. */
  readonly revision?: string;
  /** `1` (RFC 6020) or `1.1` (RFC 7950). */
  readonly yangVersion: '1' | '1.1';
  /** Module namespace URI; absent for submodules. */
  readonly namespace?: string;
  /** The module's own prefix, or for a submodule the prefix given in `belongs-to`. */
  readonly prefix: string;
  /** For submodules: the module the submodule belongs to. */
  readonly belongsTo?: string;
  readonly imports: readonly ParsedImport[];
  readonly includes: readonly ParsedInclude[];
  /** The top-level `module`/`submodule` statement. */
  readonly statement: YangStatement;
  /** The text the module was parsed from (served by `<get-schema>`). */
  readonly source: string;
  /** File name given to the parser, if any. */
  readonly file?: string;
}

/** Finds the first substatement with a core keyword. */
export function sub(statement: YangStatement, keyword: string): YangStatement | undefined {
  for (const s of statement.substatements) if (s.keyword === keyword && s.prefix === undefined) return s;
  return undefined;
}

/** The argument of the first substatement with a core keyword. */
export function subArg(statement: YangStatement, keyword: string): string | undefined {
  return sub(statement, keyword)?.argument;
}

/** All substatements with a core keyword. */
export function subs(statement: YangStatement, keyword: string): YangStatement[] {
  const out: YangStatement[] = [];
  for (const s of statement.substatements) if (s.keyword === keyword && s.prefix === undefined) out.push(s);
  return out;
}
