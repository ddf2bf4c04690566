import { checkValue, type SchemaNode, type SchemaTree } from '@yangkit/yang-schema';
import { YANG_PATCH_MODULE } from './envelope.js';
import { YangPatchError } from './errors.js';

/** The RFC 8072 `yang-patch` template (`rc:yang-data` of ietf-yang-patch) by its qualified name. */
const TEMPLATE = `${YANG_PATCH_MODULE}:yang-patch`;

const editLists = new WeakMap<SchemaTree, SchemaNode | undefined>();

/** The `edit` list of the schema's `yang-patch` template, where the fields of an edit are defined. */
function editList(schema: SchemaTree): SchemaNode | undefined {
  if (!editLists.has(schema)) {
    const patch = schema.yangData.get(TEMPLATE)?.children[0];
    editLists.set(schema, patch?.dataChild(YANG_PATCH_MODULE, 'edit'));
  }
  return editLists.get(schema);
}

/**
 * Checks that the schema holds the `yang-patch` template (ietf-yang-patch), which defines the envelope.
 *
 * @throws {YangPatchError} `SCHEMA_INCOMPLETE`
 */
export function checkTemplate(schema: SchemaTree): void {
  if (editList(schema) === undefined) {
    throw new YangPatchError(
      'SCHEMA_INCOMPLETE',
      `the schema lacks ietf-yang-patch's "${TEMPLATE}" template (add the module ietf-yang-patch)`,
    );
  }
}

/**
 * Checks the text of an edit's `operation` or `where` against its type in the `yang-patch` template
 * of the schema (enumerations there), so that the values an edit may take come from ietf-yang-patch
 * itself. Returns why the text is refused (naming the values allowed), or undefined when it is fine.
 */
export function refusedByTemplate(
  schema: SchemaTree,
  leaf: 'operation' | 'where',
  text: string,
): string | undefined {
  const type = editList(schema)?.dataChild(YANG_PATCH_MODULE, leaf)?.type;
  const r = type === undefined ? undefined : checkValue(type, text);
  return r === undefined || r.ok ? undefined : r.message;
}
