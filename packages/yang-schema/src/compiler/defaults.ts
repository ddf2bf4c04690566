import type { NodeImpl } from '../schema-node';
import type { SchemaIdentity } from '../schema-types';
import { YangTypeError } from '../types/errors';
import { checkValue, type ValueContext } from '../types/value';
import { isIntegerTypeName } from '../types/yang-type';
import type { CompileContext } from './context';

/**
 * RFC 7950 9.2.1: in a module, an integer default may also be written in hexadecimal ("0x") or octal
 * ("0") notation; those become decimal before the value check.
 */
function decimalInteger(text: string): string {
  const m = /^([+-]?)(0x[0-9a-fA-F]+|0[0-7]+)$/.exec(text);
  if (!m) return text;
  const digits = m[2] ?? '';
  const value = digits.startsWith('0x') ? BigInt(digits) : BigInt(`0o${digits.slice(1)}`);
  return `${m[1] === '-' ? '-' : ''}${value.toString()}`;
}

/**
 * Checks every leaf and leaf-list default against the node's type (RFC 7950 7.6.1, 7.7.2), as libyang
 * does. Identityref defaults resolve their prefixes in the module where the default was written.
 */
export function checkDefaults(
  ctx: CompileContext,
  nodes: readonly NodeImpl[],
  identities: ReadonlyMap<string, SchemaIdentity>,
): void {
  const derived = (identity: string, base: string): boolean => {
    const stack = [...(identities.get(identity)?.bases ?? [])];
    const seen = new Set<string>();
    for (let b = stack.pop(); b !== undefined; b = stack.pop()) {
      if (b === base) return true;
      if (seen.has(b)) continue;
      seen.add(b);
      stack.push(...(identities.get(b)?.bases ?? []));
    }
    return false;
  };
  const stack = [...nodes];
  for (let n = stack.pop(); n; n = stack.pop()) {
    for (const c of n.children) stack.push(c);
    const type = n.type;
    if (!type || n.defaults.length === 0) continue;
    const prefixes = n.defaultPrefixes;
    const own = prefixes?.values().next().value ?? n.module;
    const context: ValueContext = {
      resolveIdentity: (prefixed) => {
        const colon = prefixed.indexOf(':');
        const prefix = prefixed.slice(0, colon);
        const module =
          colon < 0 ? own : (prefixes?.get(prefix) ?? (ctx.byName.has(prefix) ? prefix : undefined));
        const qualified = `${module}:${prefixed.slice(colon + 1)}`;
        return module !== undefined && identities.has(qualified) ? qualified : undefined;
      },
      isDerivedFrom: derived,
      typeOf: (target) => (target as NodeImpl | undefined)?.type,
    };
    for (const d of n.defaults) {
      const text = isIntegerTypeName(type.base) ? decimalInteger(d) : d;
      let r: ReturnType<typeof checkValue>;
      try {
        r = checkValue(type, text, context);
      } catch (e) {
        if (!YangTypeError.isInstance(e)) throw e;
        r = { ok: false, errorTag: 'invalid-value', message: e.message };
      }
      if (!r.ok) {
        ctx.failAt(
          `invalid default "${d}" of ${n.dataPath}: ${r.message}`,
          n.location,
          n.module,
          'YANG_TYPE',
        );
      }
    }
  }
}
