import { RestconfUriError } from './errors.js';
import type { FieldsNode } from './fields.js';
import type { PathSchema, PathSchemaNode } from './schema.js';

/** A `fields` selection node bound to its schema node. */
export interface ResolvedFieldsNode {
  readonly node: PathSchemaNode;
  /** Empty when the whole subtree is selected. */
  readonly children: readonly ResolvedFieldsNode[];
}

const TRAVERSABLE = new Set<PathSchemaNode['kind']>(['container', 'list']);
const DATA = new Set<PathSchemaNode['kind']>(['container', 'list', 'leaf', 'leaf-list', 'anydata', 'anyxml']);

function display(field: FieldsNode): string {
  return field.module === undefined ? field.name : `${field.module}:${field.name}`;
}

/**
 * Binds a parsed `fields` tree to schema nodes below `target` (the last node of the resolved
 * request path, or undefined for the datastore). RFC 8040 section 4.8.3 uses api-identifiers
 * here, so the qualification rules of section 3.5.3 apply: below the datastore every first-level
 * node names its module; deeper nodes default to their parent's module.
 *
 * @throws {RestconfUriError} `PATH_MODULE_REQUIRED`, `PATH_UNKNOWN_NODE` (unknown-element),
 *   `PATH_NOT_TRAVERSABLE` (a selection below a leaf) or `PATH_NOT_DATA` (an rpc, action or
 *   notification), each message starting with `fields:` and naming the node
 */
export function resolveFields(
  fields: readonly FieldsNode[],
  schema: PathSchema,
  target?: PathSchemaNode,
): ResolvedFieldsNode[] {
  if (target !== undefined && !TRAVERSABLE.has(target.kind)) {
    throw new RestconfUriError(
      'PATH_NOT_TRAVERSABLE',
      `fields: the target ${target.kind} '${target.name}' has no child nodes to select`,
      { badElement: target.name },
    );
  }
  return fields.map((field) => resolveField(field, schema, target));
}

function resolveField(
  field: FieldsNode,
  schema: PathSchema,
  parent: PathSchemaNode | undefined,
): ResolvedFieldsNode {
  let node: PathSchemaNode | undefined;
  if (parent === undefined) {
    if (field.module === undefined) {
      throw new RestconfUriError(
        'PATH_MODULE_REQUIRED',
        `fields: top-level node '${field.name}' must be written <module>:${field.name}`,
        { badElement: field.name },
      );
    }
    node = schema.topLevel(field.module, field.name);
  } else {
    node = schema.child(parent, field.module ?? parent.module, field.name);
  }
  const where = parent === undefined ? 'at the top level' : `under '${parent.name}'`;
  if (node === undefined) {
    throw new RestconfUriError(
      'PATH_UNKNOWN_NODE',
      `fields: unknown schema node '${display(field)}' ${where}`,
      {
        badElement: display(field),
      },
    );
  }
  if (!DATA.has(node.kind)) {
    throw new RestconfUriError(
      'PATH_NOT_DATA',
      `fields: '${display(field)}' is a ${node.kind}, not a data node`,
      {
        badElement: display(field),
      },
    );
  }
  if (field.children.length > 0 && !TRAVERSABLE.has(node.kind)) {
    throw new RestconfUriError(
      'PATH_NOT_TRAVERSABLE',
      `fields: '${display(field)}' is a ${node.kind}; nothing can be selected below it`,
      { badElement: display(field) },
    );
  }
  const resolved = node;
  return { node: resolved, children: field.children.map((child) => resolveField(child, schema, resolved)) };
}
