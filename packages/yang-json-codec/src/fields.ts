import { type FieldsNode, parseFields, RestconfUriError } from '@yangkit/restconf-uri';
import type { SchemaNode } from '@yangkit/yang-schema';
import { type ChildPairs, mapGroups } from './child-map';
import { CodecError } from './errors';
import type { InstanceTree } from './instance';
import { applyView } from './view';

/** The selected child names (`module:name` or `name`, as written), each with the selection below it (empty = all). */
export type Selection = ReadonlyMap<string, Selection>;

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
 * The selection of a `fields` expression or its parsed form.
 *
 * @throws {CodecError} `BAD_OPTION` for an expression that does not parse
 */
export function fieldSelection(fields: string | readonly FieldsNode[]): Selection | undefined {
  const selection = selectionOf(typeof fields === 'string' ? parse(fields) : fields);
  return selection.size === 0 ? undefined : selection;
}

/**
 * The selection below a child `schema` of a holder of `module` that `selection` applies to (a name
 * without a module is of the holder's); undefined when everything below it is selected.
 */
export function selectedBelow(
  selection: Selection | undefined,
  schema: SchemaNode,
  module: string | undefined,
): Selection | undefined {
  if (selection === undefined) return undefined;
  const sub =
    selection.get(`${schema.module}:${schema.name}`) ??
    (schema.module === module ? selection.get(schema.name) : undefined);
  return sub === undefined || sub.size === 0 ? undefined : sub;
}

function isSelected(selection: Selection, schema: SchemaNode, module: string | undefined): boolean {
  return (
    selection.has(`${schema.module}:${schema.name}`) ||
    (schema.module === module && selection.has(schema.name))
  );
}

/**
 * The child groups `selection` keeps of a holder of `module` (`pairs`): the selected ones and, for a
 * list entry (`keys`), its key leafs, selected or not, so that every entry written still says which
 * one it is (RFC 7950 section 7.8.2). The holder's own pairs when all are kept.
 */
export function fieldsGroups(
  pairs: ChildPairs,
  selection: Selection,
  module: string | undefined,
  keys: readonly SchemaNode[] | undefined,
): ChildPairs {
  return mapGroups(pairs, (schema, group) =>
    isSelected(selection, schema, module) || keys?.includes(schema) === true ? group : undefined,
  );
}

/**
 * Applies the RESTCONF `fields` query parameter (RFC 8040 section 4.8.3) in place: below the target (each
 * top-level instance of a resource document, or the datastore of a data document) only the selected
 * descendants stay. A list entry that stays keeps its key leafs, selected or not (the target entry
 * included), so that every entry in the output still says which one it is. `fields` is the
 * expression or its parsed form (`parseFields` of @yangkit/restconf-uri). Returns the tree. An encoder
 * applies the same rule while writing, without changing the tree, with its `view` option.
 *
 * @throws {CodecError} `BAD_OPTION` for an expression that does not parse
 */
export function applyFields(tree: InstanceTree, fields: string | readonly FieldsNode[]): InstanceTree {
  return applyView(tree, { fields });
}
