import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';

/** A parsed `fields` expression: selected child names, each with the selection below it (empty = all). */
export type FieldSelection = Map<string, FieldSelection>;

function bad(expr: string, why: string): CodecError {
  return new CodecError('BAD_OPTION', `invalid fields expression "${expr}": ${why}`, {
    errorTag: 'invalid-value',
  });
}

const IDENT = /^(?:[A-Za-z_][A-Za-z0-9_.-]*:)?[A-Za-z_][A-Za-z0-9_.-]*/;

/**
 * Parses the RFC 8040 section 4.8.3 grammar: `fields-expr = path "(" fields-expr ")" / path ";" fields-expr
 * / path`, `path = api-identifier ["/" path]`. Names are `module:name` or `name`.
 */
export function parseFields(expr: string): FieldSelection {
  let i = 0;
  const parseExpr = (into: FieldSelection, depth: number): void => {
    if (depth > 64) throw bad(expr, 'nested too deep');
    for (;;) {
      let target = into;
      for (;;) {
        const m = IDENT.exec(expr.slice(i));
        if (m === null) throw bad(expr, `expected a node name at offset ${i}`);
        i += m[0].length;
        let next = target.get(m[0]);
        if (next === undefined) target.set(m[0], (next = new Map()));
        target = next;
        if (expr[i] !== '/') break;
        i++;
      }
      if (expr[i] === '(') {
        i++;
        parseExpr(target, depth + 1);
        if (expr[i] !== ')') throw bad(expr, `expected ")" at offset ${i}`);
        i++;
      }
      if (expr[i] !== ';') return;
      i++;
    }
  };
  const root: FieldSelection = new Map();
  parseExpr(root, 0);
  if (i !== expr.length) throw bad(expr, `unexpected "${expr[i]}" at offset ${i}`);
  return root;
}

/**
 * Applies the RESTCONF `fields` query parameter (RFC 8040 section 4.8.3) in place: below the target (each
 * top-level instance of a resource document, or the datastore of a data document) only the selected
 * descendants stay. A list entry that stays keeps its key leafs, selected or not (the target entry
 * included), so that every entry in the output still says which one it is. Returns the tree.
 */
export function applyFields(tree: InstanceTree, fields: string | FieldSelection): InstanceTree {
  const selection = typeof fields === 'string' ? parseFields(fields) : fields;
  if (tree.kind === 'data' || tree.kind === 'config') select(tree, selection, undefined);
  else {
    for (const nodes of tree.children.values()) for (const n of nodes) select(n, selection, n.schema.module);
  }
  return tree;
}

function select(holder: ChildHolder, selection: FieldSelection, parentModule: string | undefined): void {
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
