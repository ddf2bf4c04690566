/** What the OpenAPI document of @yangkit/restconf-openapi says of a node, in `x-yang`. */
export interface YangInfo {
  readonly kind: string;
  readonly module: string;
  readonly name: string;
  readonly path: string;
  readonly flags: string;
  readonly label: string;
  readonly type?: string;
  readonly keys?: readonly string[];
  readonly default?: string;
  readonly units?: string;
}

/** A node of the explorer's schema tree: one data node, rpc or action. */
export interface TreeNode {
  readonly yang: YangInfo;
  /** URI template of the node (a list: of one entry), relative to the RESTCONF root. */
  readonly template: string;
  /** URI template of every entry of a list or leaf-list. */
  readonly listTemplate?: string;
  /** Names of the path parameters of `template`, in order. */
  readonly params: readonly string[];
  /** The methods `template` allows, upper case. */
  readonly methods: readonly string[];
  readonly description?: string;
  readonly children: TreeNode[];
  readonly parent: TreeNode | undefined;
}

/** The parts of an OpenAPI document the explorer reads. */
export interface ApiDocument {
  readonly servers?: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Record<string, unknown>>>;
  readonly components?: { readonly schemas?: Readonly<Record<string, Schema>> };
  readonly 'x-yang-notifications'?: readonly { module: string; name: string }[];
}

/** A JSON Schema, as far as the explorer looks into one. */
export interface Schema {
  readonly $ref?: string;
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** The parameter names of a URI template, in order. */
function paramsOf(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** The template of the parent resource: the path without its last segment. */
function parentOf(template: string): string {
  return template.slice(0, template.lastIndexOf('/'));
}

/**
 * The schema tree of a document: data nodes under `/data` (a list once, with the template of
 * its entries and of all of them), actions under their list entry or container, and rpcs.
 */
export function buildTree(doc: ApiDocument): { data: TreeNode[]; operations: TreeNode[] } {
  const data: TreeNode[] = [];
  const operations: TreeNode[] = [];
  const byTemplate = new Map<string, TreeNode>();
  for (const [template, item] of Object.entries(doc.paths)) {
    const yang = item['x-yang'] as YangInfo | undefined;
    if (yang === undefined) continue;
    const isList = yang.kind === 'list' || yang.kind === 'leaf-list';
    const methods = METHODS.filter((m) => item[m] !== undefined).map((m) => m.toUpperCase());
    const existing = byTemplate.get(template);
    if (existing !== undefined) continue;
    const listNode = isList ? findList(byTemplate, template) : undefined;
    if (listNode !== undefined) {
      // The entry template of a list seen before (as its every-entry path).
      const entry: TreeNode = { ...listNode, template, params: paramsOf(template), methods };
      replaceNode(listNode, entry, byTemplate, data);
      byTemplate.set(template, entry);
      continue;
    }
    const parent = byTemplate.get(parentOf(template));
    const node: TreeNode = {
      yang,
      template,
      ...(isList ? { listTemplate: template } : {}),
      params: paramsOf(template),
      methods,
      ...(typeof item.description === 'string' ? { description: item.description } : {}),
      children: [],
      parent,
    };
    byTemplate.set(template, node);
    if (parent !== undefined) parent.children.push(node);
    else if (template.startsWith('/operations/')) operations.push(node);
    else data.push(node);
  }
  return { data, operations };
}

/** The list node whose every-entry template `template` extends with `=...`. */
function findList(byTemplate: Map<string, TreeNode>, template: string): TreeNode | undefined {
  const eq = template.lastIndexOf('=');
  if (eq < template.lastIndexOf('/')) return undefined;
  return byTemplate.get(template.slice(0, eq));
}

/** Puts `next` where `old` was: in its parent's children or the top list. */
function replaceNode(
  old: TreeNode,
  next: TreeNode,
  byTemplate: Map<string, TreeNode>,
  top: TreeNode[],
): void {
  const siblings = old.parent?.children ?? top;
  siblings[siblings.indexOf(old)] = next;
  if (old.listTemplate !== undefined) byTemplate.set(old.listTemplate, next);
}

/** The RFC 8340 line of a node: `rw artist* [name]`, `ro count?   uint32`; `qualified` names the module. */
export function treeLine(node: TreeNode, qualified = false): string {
  const y = node.yang;
  const keys = y.keys === undefined ? '' : ` [${y.keys.join(' ')}]`;
  return `${y.flags} ${qualified ? `${y.module}:` : ''}${y.label}${y.type === undefined ? keys : `   ${y.type}`}`;
}

/** The nodes matching `query` (name, module or path), with their ancestors; all when empty. */
export function filterTree(nodes: readonly TreeNode[], query: string): Set<TreeNode> {
  const q = query.trim().toLowerCase();
  const shown = new Set<TreeNode>();
  const visit = (n: TreeNode): boolean => {
    let any = q === '' || `${n.yang.module}:${n.yang.name} ${n.yang.path}`.toLowerCase().includes(q);
    for (const c of n.children) if (visit(c)) any = true;
    if (any) shown.add(n);
    return any;
  };
  for (const n of nodes) visit(n);
  return shown;
}

/** The URI of a template with its parameters filled, percent-encoded (RFC 8040 section 3.5.3). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** A schema with its `$ref` followed (within the document). */
export function resolve(doc: ApiDocument, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; i < 32 && s?.$ref !== undefined; i++) {
    s = doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')];
  }
  return s;
}

/** The JSON body schema of an operation's request, or of its 200 reply. */
function bodySchema(doc: ApiDocument, template: string, method: string, reply = false): Schema | undefined {
  // biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object, read where present
  const op = doc.paths[template]?.[method] as Record<string, any> | undefined;
  const content = reply ? op?.responses?.['200']?.content : op?.requestBody?.content;
  return resolve(doc, content?.['application/yang-data+json']?.schema);
}

/** The schema of a leaf's value, from the body of its PUT (or GET). */
export function leafSchema(doc: ApiDocument, node: TreeNode): Schema | undefined {
  const body = bodySchema(doc, node.template, 'put') ?? bodySchema(doc, node.template, 'get', true);
  const member = body?.properties === undefined ? undefined : Object.values(body.properties)[0];
  return resolve(doc, member);
}

/** Turns the text of a form field into the JSON value its schema wants (RFC 7951 section 6). */
export function jsonValue(schema: Schema | undefined, text: string): unknown {
  if (schema === undefined) return text;
  if (Array.isArray(schema.const) && schema.const[0] === null) return [null];
  if (schema.type === 'integer' || schema.type === 'number')
    return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (schema.anyOf !== undefined && /^-?\d+$/.test(text) && schema.anyOf.some((s) => s.type === 'integer'))
    return Number(text);
  return text;
}

/** An example value of a schema, for the skeleton of an operation's input. */
export function example(doc: ApiDocument, schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, schema);
  if (s === undefined || depth > 8) return {};
  if (s.enum !== undefined) return s.enum[0];
  if (Array.isArray(s.const)) return s.const;
  if (s.anyOf !== undefined) return example(doc, s.anyOf[0], depth + 1);
  switch (s.type) {
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.minimum > 0 ? s.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        const r = resolve(doc, v);
        if (r?.type !== 'object' && r?.type !== 'array') out[k] = example(doc, v, depth + 1);
      }
      return out;
    }
    default:
      return '';
  }
}

/** The JSON input skeleton of an rpc or action: `{"module:input": {...}}`, or undefined without input. */
export function inputSkeleton(doc: ApiDocument, node: TreeNode): string | undefined {
  const body = bodySchema(doc, node.template, 'post');
  const [name, input] = Object.entries(body?.properties ?? {})[0] ?? [];
  if (name === undefined) return undefined;
  return JSON.stringify({ [name]: example(doc, input) }, null, 2);
}
