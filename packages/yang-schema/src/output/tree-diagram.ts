import type { SchemaTree } from '../schema-tree';
import type { SchemaModule, SchemaNode } from '../schema-types';

/**
 * Prints an RFC 8340 tree diagram of one module: its data nodes, what it augments into other modules,
 * its rpcs and notifications, and its `rc:yang-data` / `sx:structure` templates.
 */
export function printTreeDiagram(tree: SchemaTree, moduleName: string): string {
  const module = tree.moduleByName(moduleName);
  if (!module) return '';
  const out: string[] = [`module: ${module.name}`];
  const own = module.children.filter((n) => n.kind !== 'rpc' && n.kind !== 'notification');
  printSiblings(tree, module, own, '  ', out);
  const augments = new Map<string, SchemaNode[]>();
  for (const n of tree) {
    if (n.module !== module.name || !n.parent || n.parent.module === module.name) continue;
    const list = augments.get(n.parent.schemaPath) ?? [];
    list.push(n);
    augments.set(n.parent.schemaPath, list);
  }
  for (const [target, nodes] of augments) {
    out.push('', `  augment ${target}:`);
    printSiblings(tree, module, nodes, '    ', out);
  }
  const rpcs = module.children.filter((n) => n.kind === 'rpc');
  if (rpcs.length > 0) {
    out.push('', '  rpcs:');
    printSiblings(tree, module, rpcs, '    ', out);
  }
  const notifications = module.children.filter((n) => n.kind === 'notification');
  if (notifications.length > 0) {
    out.push('', '  notifications:');
    printSiblings(tree, module, notifications, '    ', out);
  }
  for (const s of tree.yangData.values()) {
    if (s.module !== module.name) continue;
    out.push('', `  ${s.extension === 'yang-data' ? 'yang-data' : 'structure'} ${s.name}:`);
    printSiblings(tree, module, s.children, '    ', out);
  }
  return `${out.join('\n')}\n`;
}

const templateTops = new WeakMap<SchemaTree, ReadonlySet<SchemaNode>>();

/** True for a node of an `rc:yang-data` / `sx:structure` template (neither configuration nor state). */
function inTemplate(tree: SchemaTree, n: SchemaNode): boolean {
  let tops = templateTops.get(tree);
  if (tops === undefined) {
    tops = new Set([...tree.yangData.values()].flatMap((s) => s.children));
    templateTops.set(tree, tops);
  }
  let top = n;
  while (top.parent !== undefined) top = top.parent;
  return tops.has(top);
}

/** RFC 8340 section 2 flags; nodes of a template have none (`--`, as yanglint prints them). */
function flagsOf(tree: SchemaTree, n: SchemaNode): string {
  if (inTemplate(tree, n)) return '--';
  if (n.kind === 'rpc' || n.kind === 'action') return '-x';
  if (n.kind === 'notification') return '-n';
  if (n.isOperation) {
    for (let p: SchemaNode | undefined = n; p; p = p.parent) {
      if (p.kind === 'input') return '-w';
      if (p.kind === 'output') return 'ro';
    }
    return 'ro';
  }
  return n.config ? 'rw' : 'ro';
}

function labelOf(module: SchemaModule, n: SchemaNode): string {
  const name = n.module === module.name ? n.name : `${n.prefix}:${n.name}`;
  switch (n.kind) {
    case 'choice':
      return `(${name})${n.mandatory ? '' : '?'}`;
    case 'case':
      return `(${name})`;
    case 'container':
      return n.presence !== undefined ? `${name}!` : name;
    case 'list':
    case 'leaf-list':
      return `${name}*`;
    case 'leaf':
    case 'anydata':
    case 'anyxml':
      return n.mandatory || n.isKey ? name : `${name}?`;
    default:
      return name;
  }
}

function typeOf(tree: SchemaTree, module: SchemaModule, n: SchemaNode): string {
  if (n.kind === 'anydata') return '<anydata>';
  if (n.kind === 'anyxml') return '<anyxml>';
  const t = n.type;
  if (!t) return '';
  if (t.base === 'leafref' && t.path !== undefined) return `-> ${t.path}`;
  const colon = t.name.indexOf(':');
  if (colon < 0) return t.name;
  const owner = t.name.slice(0, colon);
  if (owner === module.name) return t.name.slice(colon + 1);
  return `${tree.moduleByName(owner)?.prefix ?? owner}:${t.name.slice(colon + 1)}`;
}

/** One line of an RFC 8340 tree diagram, in its parts. */
export interface TreeDiagramEntry {
  /** `+` current, `x` deprecated, `o` obsolete. */
  readonly status: '+' | 'x' | 'o';
  /** `rw`, `ro`, `-x` (rpc, action), `-n` (notification), `-w` (input), `--` (template); empty for a case. */
  readonly flags: string;
  /** The name with its RFC 8340 marks: `(choice)?`, `presence!`, `list*`, `optional?`. */
  readonly label: string;
  /** The type of a leaf or leaf-list (`-> path` for a leafref), `<anydata>`, `<anyxml>`, or empty. */
  readonly type: string;
  /** The keys of a list, `[name]`, or empty. */
  readonly keys: string;
  /** The node's if-features, `{feature,...}?`, or empty. */
  readonly features: string;
}

/**
 * The parts of `node`'s line in the tree diagram of module `moduleName` (names and types of other
 * modules carry their prefix), as {@link printTreeDiagram} writes them (RFC 8340 section 2).
 */
export function treeDiagramEntry(tree: SchemaTree, node: SchemaNode, moduleName: string): TreeDiagramEntry {
  const module = tree.moduleByName(moduleName);
  const owner = module ?? tree.moduleByName(node.module)!;
  return {
    status: node.status === 'deprecated' ? 'x' : node.status === 'obsolete' ? 'o' : '+',
    flags: node.kind === 'case' ? '' : flagsOf(tree, node),
    label: labelOf(owner, node),
    type: typeOf(tree, owner, node),
    keys: node.kind === 'list' && node.keys.length > 0 ? `[${node.keys.join(' ')}]` : '',
    // RFC 8340 section 2.6: if-features of the node follow as "{feature,...}?".
    features: node.ifFeatures.length > 0 ? `{${node.ifFeatures.join(',')}}?` : '',
  };
}

function printSiblings(
  tree: SchemaTree,
  module: SchemaModule,
  nodes: readonly SchemaNode[],
  indent: string,
  out: string[],
): void {
  const width = Math.max(0, ...nodes.map((n) => labelOf(module, n).length));
  nodes.forEach((n, i) => {
    const e = treeDiagramEntry(tree, n, module.name);
    // RFC 8340 section 2: a case line carries no flags, just "+--:(name)".
    let line = n.kind === 'case' ? `${indent}${e.status}--:` : `${indent}${e.status}--${e.flags} `;
    line += e.type ? `${e.label.padEnd(width)}   ${e.type}` : `${e.label}${e.keys ? ` ${e.keys}` : ''}`;
    if (e.features) line += ` ${e.features}`;
    out.push(line.trimEnd());
    if (n.children.length > 0 && n.kind !== 'leaf') {
      const last = i === nodes.length - 1;
      printSiblings(tree, module, n.children, `${indent}${last ? '   ' : '|  '}`, out);
    }
  });
}
