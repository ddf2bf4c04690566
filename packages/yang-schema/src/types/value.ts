import { checkBits, checkBoolean, checkEmpty, checkEnumeration, checkIdentityref } from './check-named';
import { checkDecimal64, checkInteger } from './check-numeric';
import { checkBinary, checkString } from './check-string';
import { YangTypeError } from './errors';
import { parseInstanceIdentifier } from './instance-identifier';
import { describe, type Fail, type Failure, invalid, quietly, quote, valid } from './value-result';
import type { YangType } from './yang-type';

/** Result of checking a lexical (XML/canonical text) value against a type. */
export type ValueCheck =
  | {
      readonly ok: true;
      readonly canonical: string;
      /** The union member that matched (the innermost one for nested unions). */
      readonly member?: YangType;
      /** identityref resolved through `ValueContext.resolveIdentity`: the 'module:identity' name. */
      readonly identity?: string;
    }
  | {
      readonly ok: false;
      readonly errorTag: 'invalid-value';
      /** What failed and which rule: names the type and the restriction text. */
      readonly message: string;
      readonly errorAppTag?: string;
      readonly errorMessage?: string;
    };

/** What checkValue needs from the compiled schema; every member is optional. */
export interface ValueContext {
  /** Maps a value's 'prefix:name' identity to a qualified 'module:identity' name, or undefined if unknown. */
  resolveIdentity?(prefixed: string): string | undefined;
  /**
   * For a value `resolveIdentity` does not know: the identity it names and the if-feature text that
   * disables it, when it is disabled by a feature (so the error can say so).
   */
  disabledIdentity?(prefixed: string): { readonly identity: string; readonly features: string } | undefined;
  /** True when identity 'module:identity' is derived from (not equal to) base 'module:identity'. */
  isDerivedFrom?(identity: string, base: string): boolean;
  /** The type of a leafref target node. */
  typeOf?(target: unknown): YangType | undefined;
}

/** Deepest union / leafref nesting followed; deeper chains (or cycles) fail instead of recursing forever. */
const MAX_TYPE_DEPTH = 32;

/**
 * Validates `text` as a value of `type` (range, length, patterns, enums, bits, fraction-digits, union members in
 * order) and returns the canonical form (RFC 7950 9.x "canonical form"). identityref values are checked only for
 * form 'prefix:name' or 'name' unless `context.resolveIdentity` is given; instance-identifier only for syntax;
 * leafref is checked against `type.leafrefTarget`'s type when the compiler set it, passed via `context.typeOf`.
 * Never throws: a malformed value or type yields `{ ok: false }`.
 */
export function checkValue(type: YangType, text: string, context?: ValueContext): ValueCheck {
  return check(type, text, context, 0, invalid);
}

function check(
  type: YangType,
  text: string,
  context: ValueContext | undefined,
  depth: number,
  fail: Fail,
): ValueCheck {
  if (depth > MAX_TYPE_DEPTH)
    return fail((t) => `${describe(t)} nests unions or leafrefs deeper than ${MAX_TYPE_DEPTH}`, [type]);
  switch (type.base) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'uint64':
      return checkInteger(type, text, fail);
    case 'decimal64':
      return checkDecimal64(type, text, fail);
    case 'string':
      return checkString(type, text, fail);
    case 'binary':
      return checkBinary(type, text, fail);
    case 'boolean':
      return checkBoolean(type, text, fail);
    case 'empty':
      return checkEmpty(type, text, fail);
    case 'enumeration':
      return checkEnumeration(type, text, fail);
    case 'bits':
      return checkBits(type, text, fail);
    case 'identityref':
      return checkIdentityref(type, text, context, fail);
    case 'instance-identifier':
      return checkInstanceIdentifier(type, text, fail);
    case 'leafref':
      return checkLeafref(type, text, context, depth, fail);
    case 'union':
      return checkUnion(type, text, context, depth, fail);
    default:
      return fail((t) => `unknown built-in type ${quote(String(t.base))}`, [type as YangType]);
  }
}

/** A leafref's type when its target is unknown. */
const STRING: YangType = { base: 'string', name: 'string' };
const NO_MEMBERS: readonly YangType[] = [];

/** instance-identifier (RFC 7950 9.13): syntax only; the canonical form is the value as is. */
function checkInstanceIdentifier(type: YangType, text: string, fail: Fail): ValueCheck {
  try {
    parseInstanceIdentifier(text);
    return valid(text);
  } catch (error) {
    if (!YangTypeError.isInstance(error)) throw error;
    return fail(
      (x, t, e) => `${quote(x)} is not a valid ${describe(t)} value: ${e.message}`,
      [text, type, error],
    );
  }
}

/**
 * leafref (RFC 7950 9.9): the value space of the target leaf's type. Without a resolved target the value is
 * only checked to be a legal string; whether the instance exists (require-instance) is the datastore's check.
 */
function checkLeafref(
  type: YangType,
  text: string,
  context: ValueContext | undefined,
  depth: number,
  fail: Fail,
): ValueCheck {
  const target = type.leafrefTarget !== undefined ? context?.typeOf?.(type.leafrefTarget) : undefined;
  if (!target) return checkString(STRING, text, fail);
  const result = check(target, text, context, depth + 1, fail);
  // A chain of leafrefs names only the path nearest the failing type, so the message stays short.
  if (result.ok || target.base === 'leafref') return result;
  return fail(
    (t, why) => `${describe(t)} path ${quote(t.path ?? '')}: ${why}`,
    [type, result.message],
    result,
  );
}

/** union (RFC 7950 9.12): members in order, the first that accepts the value wins. */
function checkUnion(
  type: YangType,
  text: string,
  context: ValueContext | undefined,
  depth: number,
  fail: Fail,
): ValueCheck {
  // Members are tried without building failure messages; they are explained only if every member fails.
  const members = type.members ?? NO_MEMBERS;
  for (let k = 0; k < members.length; k++) {
    const member = members[k]!;
    const result = check(member, text, context, depth + 1, quietly);
    if (result.ok) {
      if (result.member) return result;
      // Built field by field: object spread is several times slower here and unions sit on hot paths.
      return result.identity === undefined
        ? { ok: true, canonical: result.canonical, member }
        : { ok: true, canonical: result.canonical, member, identity: result.identity };
    }
  }
  return fail(
    (x, t, c, d) => {
      const reasons = (t.members ?? NO_MEMBERS).map(
        (m) => (check(m, x, c, d + 1, invalid) as Failure).message,
      );
      return `${quote(x)} matches no member of ${describe(t)}: ${reasons.join('; ')}`;
    },
    [text, type, context, depth],
  );
}
