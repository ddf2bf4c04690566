import { type FieldsNode, parseFields, RestconfUriError } from '@yangkit/restconf-uri';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';

/** The selected child names (`module:name` or `name`, as written), each with the selection below it (empty = all). */
type Selection = Map<string, Selection>;

function selectionOf(fields: readonly FieldsNode[]): Selection {
  return new Map(
    fields.map((f) => [f.module === undefined ? f.name : `${f.module}:${f.name}`, selectionOf(f.children)]),
  );
}

/** The expression parsed by restconf-uri, the one parser of its grammar (RFC 8040 section 4.8.3). */
function parse(expr: string): readonly FieldsNode[] {
  try {
    return parseFields(expr);
  } catch (error) {
    if (!RestconfUriError.isInstance(error)) throw error;
    throw new CodecError('BAD_OPTION', `invalid fields expression "${expr}": ${error.message}`, {
      errorTag: 'invalid-value',
      cause: error,
    });
  }
}

/**
 * Applies the RESTCONF `fields` query parameter (RFC 8040 section 4.8.3) in place: below the target (each
 * top-level instance of a resource document, or the datastore of a data document) only the selected
 * descendants stay. A list entry that stays keeps its key leafs, selected or not (the target entry
 * included), so that every entry in the output still says which one it is. `fields` is the
 * expression or its parsed form (`parseFields` of @yangkit/restconf-uri). Returns the tree.
 *
 * @throws {CodecError} `BAD_OPTION` for an expression that does not parse
 */
export function applyFields(tree: InstanceTree, fields: string | readonly FieldsNode[]): InstanceTree {
  const selection = selectionOf(typeof fields === 'string' ? parse(fields) : fields);
  if (tree.kind === 'data' || tree.kind === 'config') select(tree, selection, undefined);
  else {
    for (const nodes of tree.children.values()) for (const n of nodes) select(n, selection, n.schema.module);
  }
  return tree;
}

function select(holder: ChildHolder, selection: Selection, parentModule: string | undefined): void {
  const children = holder.children;
  if (children === undefined || selection.size === 0) return;
  // A document (it has a `kind`) has no keys; a list entry keeps its own (RFC 7950 section 7.8.2).
  const entry = 'kind' in holder ? undefined : (holder as DataNode).schema;
  const keys = entry?.kind === 'list' ? entry.keyNodes : undefined;
  for (const [schema, nodes] of children) {
    const sub =
      selection.get(`${schema.module}:${schema.name}`) ??
      (schema.module === parentModule ? selection.get(schema.name) : undefined);
    if (sub === undefined) {
      if (keys === undefined || !keys.includes(schema)) children.delete(schema);
      continue;
    }
    for (const n of nodes as DataNode[]) select(n, sub, schema.module);
  }
}
