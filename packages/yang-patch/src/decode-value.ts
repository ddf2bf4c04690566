import {
  CodecError,
  type DataNode,
  decodeJsonSteps,
  decodeXmlSteps,
  type Steps,
  walk,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { RawValue } from './envelope.js';
import { type PatchErrorPath, YangPatchError } from './errors.js';
import { dataParent, errorPathOf, namespacesOf } from './paths.js';
import type { PathStep } from './types.js';

/** The codec's limits on a decoded value: nesting depth and (when set) key and value lengths. */
export interface DecodeLimits {
  readonly maxDepth: number;
  readonly maxKeyLength?: number;
  readonly maxStringLength?: number;
  /** Most data nodes the value may hold (default: no limit); more is refused with too-big. */
  readonly maxNodes?: number;
}

/**
 * Decodes an edit's `value` as a data resource below the target's parent (RFC 8072 section 2.2: it holds
 * the target node), then checks it is config data, instances of the target node, with the target's keys.
 * Wire forms: JSON `{ "module:node": ... }`, XML `<node xmlns="...">...</node>` (the children of `<value>`).
 *
 * @throws {YangPatchError} `VALUE_INVALID` (with the codec's error-tag) or `VALUE_MISMATCH`
 */
export function* decodeValue(
  schema: SchemaTree,
  raw: RawValue,
  target: readonly PathStep[],
  editId: string,
  limits: DecodeLimits,
): Steps<DataNode[]> {
  const last = target[target.length - 1];
  const parent = last === undefined ? undefined : dataParent(last.schema);
  // Computed only when an error needs it: most values are fine.
  const errorPath = () => errorPathOf(schema, target);
  // The value sits below the target's parent, so the codec's error paths start there (unless two
  // modules of that path share a prefix, which an XML path cannot write).
  let parentPath: PatchErrorPath | undefined;
  try {
    parentPath = target.length > 1 ? errorPathOf(schema, target.slice(0, -1)) : undefined;
  } catch {
    parentPath = undefined;
  }
  const options = {
    kind: 'resource' as const,
    ...(parent === undefined ? {} : { parent }),
    ...(parentPath === undefined ? {} : { parentPath }),
    ...limits,
  };
  const where = `edit "${editId}": value`;
  let nodes: DataNode[];
  try {
    if (raw.encoding === 'json') {
      // RFC 7951 section 4 asks for a qualified name here (the parent, "value", is ietf-yang-patch's), but
      // RFC 8072 appendix A.1.2 writes "song": a bare name can only mean the target node's module.
      // Object.fromEntries defines own properties, so a "__proto__" member stays a member.
      const members = Object.fromEntries(
        Object.entries(raw.members).map(([k, v]) => [
          !k.includes(':') && last !== undefined ? `${last.schema.module}:${k}` : k,
          v,
        ]),
      );
      const doc = yield* decodeJsonSteps(schema, members, options);
      nodes = [...doc.children.values()].flat();
    } else {
      // The elements read with the envelope are decoded as they are, not written back to text.
      const doc = yield* decodeXmlSteps(schema, raw.elements, options);
      nodes = [...doc.children.values()].flat();
    }
  } catch (cause) {
    if (!CodecError.isInstance(cause)) throw cause;
    throw new YangPatchError('VALUE_INVALID', `${where}: ${cause.message}`, {
      editId,
      errorTag: cause.errorTag,
      errorAppTag: cause.errorAppTag,
      // The node of the value that is wrong, not only the edit's target.
      errorPath:
        cause.errorPath === undefined
          ? errorPath()
          : { ...cause.errorPath, namespaces: namespacesOf(schema, cause.errorPath.xml) },
      errorInfo: cause.errorInfo,
      cause,
    });
  }
  const mismatch = (message: string) =>
    new YangPatchError('VALUE_MISMATCH', `${where}: ${message}`, { editId, errorPath: errorPath() });
  for (const n of nodes) {
    for (const d of [n, ...walk(n)]) {
      if (!d.schema.config) {
        throw new YangPatchError(
          'VALUE_INVALID',
          `${where}: "${d.schema.name}" is state data (config false)`,
          {
            editId,
            errorPath: errorPath(),
            errorInfo: { 'bad-element': d.schema.name },
          },
        );
      }
    }
  }
  if (last === undefined) {
    if (nodes.length === 0) throw mismatch('holds no data node');
    return nodes;
  }
  const s = last.schema;
  const other = nodes.find((n) => n.schema !== s);
  if (other !== undefined) {
    throw mismatch(
      `holds "${other.schema.module}:${other.schema.name}", but the target is "${s.module}:${s.name}"`,
    );
  }
  const whole =
    (s.kind === 'list' && last.keys === undefined) || (s.kind === 'leaf-list' && last.value === undefined);
  if (whole ? nodes.length === 0 : nodes.length !== 1) {
    throw mismatch(
      `must hold ${whole ? 'at least one' : 'exactly one'} instance of "${s.name}", found ${nodes.length}`,
    );
  }
  const node = nodes[0]!;
  if (last.keys !== undefined) {
    for (const k of last.keys) {
      const actual = node.children?.get(s.keyNodes.find((n) => n.name === k.name)!)?.[0]?.value;
      if (actual !== k.value) {
        throw mismatch(`key "${k.name}" is "${actual ?? ''}" in the value but "${k.value}" in the target`);
      }
    }
  }
  if (last.value !== undefined && node.value !== last.value) {
    throw mismatch(`leaf-list value "${node.value ?? ''}" differs from the target's "${last.value}"`);
  }
  return nodes;
}
