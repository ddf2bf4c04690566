/**
 * The effective type of a YANG leaf, leaf-list or typedef (RFC 7950 section 9): the shared contract between
 * the schema compiler (which resolves typedef chains) and the value checks in this directory.
 */

/** The YANG 1.1 built-in types (RFC 7950 section 4.2.4, table in section 9). */
export type BuiltinTypeName =
  | 'binary'
  | 'bits'
  | 'boolean'
  | 'decimal64'
  | 'empty'
  | 'enumeration'
  | 'identityref'
  | 'instance-identifier'
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'leafref'
  | 'string'
  | 'uint8'
  | 'uint16'
  | 'uint32'
  | 'uint64'
  | 'union';

/** Every built-in type name, in the order of the RFC 7950 section 4.2.4 table. */
export const BUILTIN_TYPE_NAMES: readonly BuiltinTypeName[] = [
  'binary',
  'bits',
  'boolean',
  'decimal64',
  'empty',
  'enumeration',
  'identityref',
  'instance-identifier',
  'int8',
  'int16',
  'int32',
  'int64',
  'leafref',
  'string',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'union',
];

const BUILTIN_SET: ReadonlySet<string> = new Set(BUILTIN_TYPE_NAMES);

/** True when `name` is one of the YANG built-in type names. */
export function isBuiltinTypeName(name: string): name is BuiltinTypeName {
  return BUILTIN_SET.has(name);
}

/** The eight integer built-in types (RFC 7950 section 9.2). */
export type IntegerTypeName = 'int8' | 'int16' | 'int32' | 'int64' | 'uint8' | 'uint16' | 'uint32' | 'uint64';

/** True when `name` is one of the eight integer built-in types. */
export function isIntegerTypeName(name: string): name is IntegerTypeName {
  return /^u?int(8|16|32|64)$/.test(name);
}

/** A restriction's YANG error-message / error-app-tag substatements (RFC 7950 7.5.4.1/7.5.4.2). */
export interface ErrorInfo {
  readonly errorMessage?: string;
  readonly errorAppTag?: string;
}

/**
 * Closed interval; integers as bigint; decimal64 values scaled by 10^fractionDigits (so 1.5 with
 * fraction-digits 2 is 150n); length intervals count octets for binary, characters (code points) for string.
 */
export interface Interval {
  readonly min: bigint;
  readonly max: bigint;
}

/** A parsed `range` or `length` statement (RFC 7950 9.2.4, 9.4.4): ascending, disjoint intervals. */
export interface RangeRestriction extends ErrorInfo {
  readonly intervals: readonly Interval[];
  /** The argument as written in the module. */
  readonly text: string;
}

/** A `pattern` statement (RFC 7950 9.4.5, 9.4.6). */
export interface PatternRestriction extends ErrorInfo {
  /** The XSD regular expression as written in YANG. */
  readonly source: string;
  /** Translated, anchored, 'u' flag. */
  readonly regex: RegExp;
  /** `modifier invert-match` (RFC 7950 9.4.6): the value must NOT match. */
  readonly invertMatch: boolean;
}

/** One `enum` of an enumeration (RFC 7950 9.6.4). */
export interface EnumItem {
  readonly name: string;
  readonly value: number;
}

/** One `bit` of a bits type (RFC 7950 9.7.4). */
export interface BitItem {
  readonly name: string;
  readonly position: number;
}

/** The effective type of a leaf/leaf-list/typedef after the typedef chain is resolved and restrictions merged. */
export interface YangType {
  readonly base: BuiltinTypeName;
  /** 'module:typedef' for derived types (module NAME, not prefix), else the built-in name. */
  readonly name: string;
  /**
   * Derived types: every typedef of the chain as 'module:typedef', outermost first (`name` is the first),
   * so that a type derived from, say, `ietf-yang-types:xpath1.0` is recognised as one.
   */
  readonly derivedFrom?: readonly string[];
  /** Integer and decimal64 types. */
  readonly range?: RangeRestriction;
  /** String and binary. */
  readonly length?: RangeRestriction;
  /** String: all must match (ANDed along the chain). */
  readonly patterns?: readonly PatternRestriction[];
  /** Decimal64. */
  readonly fractionDigits?: number;
  /** Enumeration (after if-feature filtering, in order). */
  readonly enums?: readonly EnumItem[];
  /** Bits (sorted by position). */
  readonly bits?: readonly BitItem[];
  /** Identityref: 'module:identity' qualified base names. */
  readonly identityBases?: readonly string[];
  /** Leafref path as written. */
  readonly path?: string;
  /** Leafref (default true) and instance-identifier (default true). */
  readonly requireInstance?: boolean;
  /** Union members in order. */
  readonly members?: readonly YangType[];
  /** Set by the compiler: the compiled SchemaNode the path names. */
  readonly leafrefTarget?: unknown;
}
