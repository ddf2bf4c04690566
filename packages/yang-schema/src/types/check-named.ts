import type { ValueCheck, ValueContext } from './value';
import { describe, type Fail, invalid, quote, valid } from './value-result';
import type { BitItem, EnumItem, YangType } from './yang-type';

const TRUE = valid('true');
const FALSE = valid('false');

/**
 * boolean (RFC 7950 9.5): exactly "true" or "false". The canonical value is one of two constant
 * strings, not the text given: a tree of a million booleans holds two strings rather than a million.
 */
export function checkBoolean(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  if (text === 'true') return TRUE;
  if (text === 'false') return FALSE;
  return fail(
    (t, x) => `${quote(x)} is not a valid ${describe(t)} value: expected "true" or "false"`,
    [type, text],
  );
}

/** empty (RFC 7950 9.11): no value at all. */
export function checkEmpty(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  if (text === '') return valid('');
  return fail((t, x) => `${describe(t)} takes no value, got ${quote(x)}`, [type, text]);
}

/** Enum names per type, built once: enumerations such as iana-if-type hold hundreds of names. */
const enumNames = new WeakMap<readonly EnumItem[], ReadonlySet<string>>();
/** Bit positions by name per type. */
const bitPositions = new WeakMap<readonly BitItem[], ReadonlyMap<string, number>>();

/** enumeration (RFC 7950 9.6): one of the assigned names, exactly as written. */
export function checkEnumeration(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const enums = type.enums ?? [];
  let names = enumNames.get(enums);
  if (!names) {
    names = new Set(enums.map((e) => e.name));
    enumNames.set(enums, names);
  }
  if (names.has(text)) return valid(text);
  return fail(
    (x, t) => `${quote(x)} is not an enum of ${describe(t)} (expected one of: ${enumChoices(t)})`,
    [text, type],
  );
}

/** The first 16 names of an enumeration, for a message. */
function enumChoices(type: YangType): string {
  const enums = type.enums ?? [];
  const shown = enums.slice(0, 16).map((e) => e.name);
  return `${shown.join(', ')}${enums.length > shown.length ? ', ...' : ''}`;
}

/**
 * bits (RFC 7950 9.7): a space-separated list of the names of the bits that are set, each at most once;
 * canonical form (9.7.2) lists them in position order separated by single spaces.
 */
export function checkBits(type: YangType, text: string, fail: Fail = invalid): ValueCheck {
  const bits = type.bits ?? [];
  let positions = bitPositions.get(bits);
  if (!positions) {
    positions = new Map(bits.map((b) => [b.name, b.position]));
    bitPositions.set(bits, positions);
  }
  const seen = new Set<string>();
  for (const name of text.split(/[ \t\n\r]+/)) {
    if (name === '') continue;
    if (!positions.has(name))
      return fail((n, t) => `${quote(n)} is not a bit of ${describe(t)}`, [name, type]);
    if (seen.has(name))
      return fail((n, t) => `bit ${quote(n)} is set more than once in ${describe(t)} value`, [name, type]);
    seen.add(name);
  }
  const order = positions;
  const canonical = [...seen].sort((a, b) => order.get(a)! - order.get(b)!).join(' ');
  return valid(canonical);
}

const NO_BASES: readonly string[] = [];

/** YANG identifier (RFC 7950 section 14): a letter or '_', then letters, digits, '_', '-', '.'. */
const IDENTIFIER = '[A-Za-z_][A-Za-z0-9_.-]*';
const IDENTITY_REF = new RegExp(`^(?:${IDENTIFIER}:)?${IDENTIFIER}$`);

/**
 * identityref (RFC 7950 9.10): "prefix:name" or "name". With `context.resolveIdentity` the identity must
 * exist, and with `context.isDerivedFrom` it must be derived from every base (9.10.2). The canonical form is
 * the text as given; the qualified 'module:identity' name is returned as `identity` when resolved.
 */
export function checkIdentityref(
  type: YangType,
  text: string,
  context: ValueContext | undefined,
  fail: Fail = invalid,
): ValueCheck {
  if (!IDENTITY_REF.test(text)) {
    return fail(
      (x, t) => `${quote(x)} is not a valid ${describe(t)} value: expected "prefix:identity" or "identity"`,
      [text, type],
    );
  }
  if (!context?.resolveIdentity) return valid(text);
  const identity = context.resolveIdentity(text);
  if (identity === undefined) {
    return fail(
      (x, disabled) =>
        disabled === undefined
          ? `${quote(x)} is not a known identity`
          : `${quote(x)}: identity ${disabled.identity} is unavailable, feature disabled (if-feature ${quote(disabled.features)})`,
      [text, context.disabledIdentity?.(text)],
    );
  }
  if (context.isDerivedFrom) {
    const bases = type.identityBases ?? NO_BASES;
    for (let k = 0; k < bases.length; k++) {
      const base = bases[k]!;
      if (!context.isDerivedFrom(identity, base)) {
        return fail(
          (id, b, t) => `identity ${quote(id)} is not derived from ${quote(b)} as ${describe(t)} requires`,
          [identity, base, type],
        );
      }
    }
  }
  return { ok: true, canonical: text, identity };
}
