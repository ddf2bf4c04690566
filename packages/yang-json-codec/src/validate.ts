import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { CodecError } from './errors';
import type { ChildHolder, DataNode, InstanceTree } from './instance';
import { createNode } from './instance';
import { pathOfChild, pathOfNode } from './paths';
import { isDataKind } from './schema-view';

/** Options of {@link validate}. */
export interface ValidateOptions {
  /**
   * Validate as configuration (RFC 7950 8.1: constraints of config true nodes only; state nodes are not
   * checked). Default: true for 'config' documents, false otherwise.
   */
  readonly config?: boolean;
  /**
   * The document is a whole datastore (or whole operation input/output): mandatory nodes and min-elements
   * are checked at the top level too. Default: true for rpc/action/notification kinds, false for data.
   */
  readonly complete?: boolean;
  /** Stop after this many errors (default 100). */
  readonly maxErrors?: number;
}

/**
 * The constraints decoding leaves for a separate step (RFC 7950 section 8): mandatory leafs and choices,
 * min-elements/max-elements, unique, and leafref `require-instance` against the instances of the same
 * document (when the document holds the target's top-level node). Returns every error found (empty when
 * the tree is valid), each naming the node and the rule, with the error-tag and error-app-tag of
 * RFC 7950 section 15.
 */
export function validate(tree: InstanceTree, options: ValidateOptions = {}): CodecError[] {
  const v = new Validator(tree, options);
  v.run();
  return v.errors;
}

class Validator {
  readonly errors: CodecError[] = [];
  private readonly schema: SchemaTree;
  private readonly config: boolean;
  private readonly complete: boolean;
  private readonly maxErrors: number;
  private valuesBySchema: Map<SchemaNode, Set<string>> | undefined;

  constructor(
    private readonly tree: InstanceTree,
    options: ValidateOptions,
  ) {
    this.schema = tree.schema;
    this.config = options.config ?? tree.kind === 'config';
    this.complete =
      options.complete ?? !(tree.kind === 'data' || tree.kind === 'config' || tree.kind === 'resource');
    this.maxErrors = options.maxErrors ?? 100;
  }

  private add(e: CodecError): void {
    if (this.errors.length < this.maxErrors) this.errors.push(e);
  }

  run(): void {
    const tree = this.tree;
    if (this.complete && (tree.kind === 'data' || tree.kind === 'config')) {
      const tops = this.schema.children.filter((c) => isDataKind(c.kind));
      this.checkSchemaChildren(tree, tops, undefined);
    }
    for (const [s, nodes] of tree.children) {
      if (s.kind === 'list' && s.unique.length > 0 && !this.skip(s)) this.unique(s, nodes);
      for (const n of nodes) this.node(n);
    }
  }

  private skip(schema: SchemaNode): boolean {
    return this.config && !schema.config && !isOperationPart(schema);
  }

  private node(n: DataNode): void {
    if (this.errors.length >= this.maxErrors) return;
    const s = n.schema;
    if (this.skip(s)) return;
    if (s.kind === 'leaf' || s.kind === 'leaf-list') {
      this.leafref(n);
      return;
    }
    if (n.children === undefined) return;
    this.checkSchemaChildren(n, s.children, n);
    for (const [cs, nodes] of n.children) {
      if (cs.kind === 'list' && cs.unique.length > 0 && !this.skip(cs)) this.unique(cs, nodes);
      for (const c of nodes) this.node(c);
    }
  }

  /** mandatory, choice and element-count checks of the schema children under one instance. */
  private checkSchemaChildren(
    holder: ChildHolder,
    schemaChildren: readonly SchemaNode[],
    parent: DataNode | undefined,
  ): void {
    for (const cs of schemaChildren) {
      if (this.skip(cs)) continue;
      switch (cs.kind) {
        case 'choice': {
          const chosen = cs.children.find((c) => hasAny(holder, c));
          if (chosen !== undefined)
            this.checkSchemaChildren(holder, chosen.kind === 'case' ? chosen.children : [chosen], parent);
          else if (cs.mandatory) {
            const path = pathOfChild(this.schema, parent, cs);
            this.add(
              new CodecError(
                'MANDATORY_MISSING',
                `mandatory choice "${cs.name}" has no case present (${path.json})`,
                {
                  errorTag: 'data-missing',
                  errorAppTag: 'missing-choice',
                  errorPath: pathOfNode(this.schema, parent),
                  errorInfo: { 'missing-choice': cs.name },
                },
              ),
            );
          }
          break;
        }
        case 'container': {
          const present = holder.children?.get(cs);
          // RFC 7950 7.6.5: the mandatory nodes of an absent non-presence container still count.
          if (present === undefined && cs.presence === undefined) {
            const implied = createNode(cs, parent);
            this.checkSchemaChildren(implied, cs.children, implied);
          }
          break;
        }
        case 'leaf':
        case 'anydata':
        case 'anyxml':
          if (cs.mandatory && holder.children?.get(cs) === undefined) {
            const path = pathOfChild(this.schema, parent, cs);
            this.add(
              new CodecError(
                'MANDATORY_MISSING',
                `mandatory ${cs.kind} "${cs.name}" is missing (${path.json})`,
                {
                  errorTag: 'missing-element',
                  errorPath: path,
                  errorInfo: { 'bad-element': cs.name },
                },
              ),
            );
          }
          break;
        case 'list':
        case 'leaf-list': {
          const count = holder.children?.get(cs)?.length ?? 0;
          const path = pathOfChild(this.schema, parent, cs);
          if (count < cs.minElements) {
            this.add(
              new CodecError(
                'TOO_FEW_ELEMENTS',
                `${cs.kind} "${cs.name}" has ${count} entries, fewer than min-elements ${cs.minElements} (${path.json})`,
                {
                  errorTag: 'operation-failed',
                  errorAppTag: 'too-few-elements',
                  errorPath: path,
                },
              ),
            );
          }
          if (count > cs.maxElements) {
            this.add(
              new CodecError(
                'TOO_MANY_ELEMENTS',
                `${cs.kind} "${cs.name}" has ${count} entries, more than max-elements ${cs.maxElements} (${path.json})`,
                {
                  errorTag: 'operation-failed',
                  errorAppTag: 'too-many-elements',
                  errorPath: path,
                },
              ),
            );
          }
          break;
        }
        default:
          break;
      }
    }
  }

  /** RFC 7950 7.8.3: entries whose unique descendants all exist may not share their values. */
  private unique(list: SchemaNode, entries: DataNode[]): void {
    for (const paths of list.unique) {
      const seen = new Set<string>();
      for (const e of entries) {
        const values: string[] = [];
        let complete = true;
        for (const p of paths) {
          const v = descendantValue(e, p);
          if (v === undefined) {
            complete = false;
            break;
          }
          values.push(v);
        }
        if (!complete) continue;
        const key = values.join('\u0000');
        if (seen.has(key)) {
          const path = pathOfNode(this.schema, e);
          this.add(
            new CodecError(
              'UNIQUE_VIOLATION',
              `list "${list.name}" entries share the values of unique "${paths.join(' ')}" (${path.json})`,
              {
                errorTag: 'operation-failed',
                errorAppTag: 'data-not-unique',
                errorPath: path,
                errorInfo: { 'non-unique': paths.join(' ') },
              },
            ),
          );
        }
        seen.add(key);
      }
    }
  }

  /** RFC 7950 9.9: with require-instance true an instance of the target with the value must exist. */
  private leafref(n: DataNode): void {
    const type = n.schema.type;
    if (type?.base !== 'leafref' || type.requireInstance === false) return;
    const target = type.leafrefTarget as SchemaNode | undefined;
    if (target === undefined) return;
    // Only decide when the document holds the subtree the target lives in.
    const top = topAncestor(target);
    const inDocument = this.tree.children.has(top) || (target.isOperation && topAncestor(n.schema) === top);
    if (!inDocument) return;
    const values = this.values().get(target);
    if (values?.has(n.value ?? '')) return;
    const path = pathOfNode(this.schema, n);
    this.add(
      new CodecError(
        'DATA_MISSING',
        `leafref "${n.schema.name}" value "${n.value}" has no instance of ${target.dataPath} (${path.json})`,
        {
          errorTag: 'data-missing',
          errorAppTag: 'instance-required',
          errorPath: path,
          errorInfo: { 'bad-value': n.value ?? '' },
        },
      ),
    );
  }

  /** Every leaf and leaf-list value of the document per schema node (built once). */
  private values(): Map<SchemaNode, Set<string>> {
    if (this.valuesBySchema !== undefined) return this.valuesBySchema;
    const map = new Map<SchemaNode, Set<string>>();
    const visit = (h: ChildHolder) => {
      if (h.children === undefined) return;
      for (const [s, nodes] of h.children) {
        if (s.kind === 'leaf' || s.kind === 'leaf-list') {
          let set = map.get(s);
          if (set === undefined) map.set(s, (set = new Set()));
          for (const x of nodes) set.add(x.value ?? '');
        } else for (const x of nodes) visit(x);
      }
    };
    visit(this.tree);
    this.valuesBySchema = map;
    return map;
  }
}

function isOperationPart(schema: SchemaNode): boolean {
  return schema.isOperation;
}

function topAncestor(s: SchemaNode): SchemaNode {
  let t = s;
  while (t.parent !== undefined) t = t.parent;
  return t;
}

/** True when any instance of `schema` (a case, choice or data node) is among the holder's children. */
function hasAny(holder: ChildHolder, schema: SchemaNode): boolean {
  if (holder.children === undefined) return false;
  if (isDataKind(schema.kind)) return holder.children.has(schema);
  return schema.children.some((c) => hasAny(holder, c));
}

/** The value of a descendant leaf named by a unique argument ("a/b", prefixes ignored). */
function descendantValue(entry: DataNode, path: string): string | undefined {
  let node: DataNode | undefined = entry;
  for (const step of path.split('/')) {
    const name = step.includes(':') ? step.slice(step.indexOf(':') + 1) : step;
    if (node?.children === undefined) return undefined;
    let next: DataNode | undefined;
    for (const [s, nodes] of node.children) {
      if (s.name === name) {
        next = nodes[0];
        break;
      }
    }
    node = next;
  }
  return node?.value;
}
