import { RestconfUriError } from './errors.js';
import type { PathSchema, PathSchemaNode } from './schema.js';

/** An operation name as {@link classifyTarget} returns it for `{+restconf}/operations/...`. */
export interface OperationName {
  readonly module?: string;
  readonly name: string;
}

/**
 * Resolves the rpc an operation resource names (RFC 8040 section 3.6). The module may be left
 * out when exactly one module defines an rpc of that name (the spec's rule; it needs
 * `schema.modulesDefining`).
 *
 * @throws {RestconfUriError} `PATH_MODULE_REQUIRED` when the name is unqualified and not
 *   unique, `PATH_UNKNOWN_NODE` when no rpc has that name, `PATH_NOT_OPERATION` when the name is a
 *   data node or notification rather than an rpc
 */
export function resolveOperation(operation: OperationName, schema: PathSchema): PathSchemaNode {
  const { name } = operation;
  let module = operation.module;
  if (module === undefined) {
    const candidates = (schema.modulesDefining?.(name) ?? []).filter(
      (m) => schema.topLevel(m, name)?.kind === 'rpc',
    );
    if (candidates.length !== 1) {
      const why =
        candidates.length === 0
          ? 'no module defines it'
          : `it is defined by ${candidates.join(', ')}; write <module>:${name}`;
      throw new RestconfUriError(
        candidates.length === 0 ? 'PATH_UNKNOWN_NODE' : 'PATH_MODULE_REQUIRED',
        `operation '${name}' cannot be resolved: ${why}`,
        { badElement: name },
      );
    }
    module = candidates[0]!;
  }
  const node = schema.topLevel(module, name);
  if (node === undefined) {
    throw new RestconfUriError('PATH_UNKNOWN_NODE', `unknown operation '${module}:${name}'`, {
      badElement: name,
    });
  }
  if (node.kind !== 'rpc') {
    throw new RestconfUriError(
      'PATH_NOT_OPERATION',
      `'${module}:${name}' is a ${node.kind}, not an operation; use /data for data nodes`,
      { badElement: name },
    );
  }
  return node;
}
