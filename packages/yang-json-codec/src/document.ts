import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { DecodeOptions } from './decoder';
import { CodecError } from './errors';
import type { DocumentKind } from './instance';
import { findSchemaNode, operationPart } from './schema-view';

/** What a document kind plus its options resolve to in the schema. */
export interface DocumentTarget {
  readonly kind: DocumentKind;
  /** resource: the parent schema node. */
  readonly parent: SchemaNode | undefined;
  /** rpc/action/notification kinds: the operation. */
  readonly operation: SchemaNode | undefined;
  /** rpc/action kinds: the input or output node that holds the parameters. */
  readonly part: SchemaNode | undefined;
  /** yang-data: the top nodes of the structure(s) accepted. */
  readonly structure: readonly SchemaNode[] | undefined;
}

function badOption(message: string): CodecError {
  return new CodecError('BAD_OPTION', message, { errorTag: 'invalid-value' });
}

/** Resolves `options.kind` with its operation/parent/yang-data options against the schema. */
export function resolveDocument(tree: SchemaTree, options: DecodeOptions): DocumentTarget {
  const kind = options.kind ?? 'data';
  const base = { kind, parent: undefined, operation: undefined, part: undefined, structure: undefined };
  switch (kind) {
    case 'data':
    case 'config':
      return base;
    case 'resource':
      return { ...base, parent: options.parent };
    case 'yang-data':
      return { ...base, structure: yangDataNodes(tree, options.yangData) };
    case 'notification':
      return base;
    case 'rpc-input':
    case 'rpc-output':
    case 'action-input':
    case 'action-output': {
      const op = operationNode(tree, options.operation, kind.startsWith('rpc') ? 'rpc' : 'action');
      const part = operationPart(op, kind.endsWith('input') ? 'input' : 'output');
      if (part === undefined)
        throw badOption(`${op.kind} "${op.name}" has no ${kind.endsWith('input') ? 'input' : 'output'}`);
      return { ...base, operation: op, part };
    }
    default:
      throw badOption(`unknown document kind "${String(kind)}"`);
  }
}

/** Finds an rpc (`module:name`) or action (schema path) named by an option. */
export function operationNode(
  tree: SchemaTree,
  operation: string | SchemaNode | undefined,
  kind: 'rpc' | 'action',
): SchemaNode {
  if (operation === undefined) throw badOption(`the ${kind} must be named (option "operation")`);
  const node =
    typeof operation !== 'string'
      ? operation
      : findSchemaNode(tree, operation.startsWith('/') ? operation : `/${operation}`);
  if (node === undefined || node.kind !== kind) {
    throw badOption(
      `"${typeof operation === 'string' ? operation : operation.name}" names no ${kind} of the schema`,
    );
  }
  return node;
}

/** The top nodes of the named yang-data structure, or of all of them. */
function yangDataNodes(tree: SchemaTree, name: string | undefined): SchemaNode[] {
  if (name === undefined) return [...tree.yangData.values()].flatMap((s) => [...s.children]);
  const found = tree.yangData.get(name);
  if (found === undefined) throw badOption(`"${name}" names no yang-data structure of the schema`);
  return [...found.children];
}
