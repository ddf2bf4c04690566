import {
  type InstanceIdentifierStep,
  parseInstanceIdentifier,
  type SchemaNode,
  type SchemaTree,
} from '@yangkit/yang-schema';
import type { PathKey, PathStep } from './path-step';
import { nodeInfo, prefixOfModule, topLevelInfo } from './schema-view';

/**
 * instance-identifier values (RFC 7950 9.13, RFC 7951 6.11). The tree keeps them in the RFC 7951 form:
 * the first step and every step whose module differs from its parent's carry the module name. XML values
 * use prefixes bound by the namespace declarations in scope; the translation goes through the schema so
 * that every step names a real node.
 */

interface Predicate {
  /** 'key': `[name='v']`; 'dot': `[.='v']`; 'pos': `[3]`. */
  readonly kind: 'key' | 'dot' | 'pos';
  readonly qualifier: string | undefined;
  readonly name: string;
  readonly value: string;
}

interface Step {
  readonly qualifier: string | undefined;
  readonly name: string;
  readonly predicates: Predicate[];
}

/**
 * Parses the instance-identifier grammar (RFC 7950 section 14) with yang-schema's one parser; returns
 * undefined on a syntax error.
 */
function parse(text: string): Step[] | undefined {
  let parsed: InstanceIdentifierStep[];
  try {
    parsed = parseInstanceIdentifier(text);
  } catch {
    return undefined;
  }
  return parsed.map((step) => ({
    qualifier: step.prefix,
    name: step.name,
    predicates: step.predicates.map((p): Predicate => {
      if (p.kind === 'key') return { kind: 'key', qualifier: p.prefix, name: p.name, value: p.value };
      if (p.kind === 'leaf-list') return { kind: 'dot', qualifier: undefined, name: '.', value: p.value };
      return { kind: 'pos', qualifier: undefined, name: '', value: String(p.position) };
    }),
  }));
}

function quote(v: string): string {
  return v.includes("'") ? `"${v}"` : `'${v}'`;
}

/** Resolves parsed steps to schema nodes; `moduleOf` maps a step qualifier (prefix or module) to a module. */
function resolve(
  tree: SchemaTree,
  steps: Step[],
  moduleOf: (qualifier: string | undefined, inherited: string | undefined) => string | undefined,
): { nodes: SchemaNode[]; keyNodes: (SchemaNode | undefined)[][] } | undefined {
  const nodes: SchemaNode[] = [];
  const keyNodes: (SchemaNode | undefined)[][] = [];
  let parent: SchemaNode | undefined;
  for (const step of steps) {
    const module = moduleOf(step.qualifier, parent?.module);
    if (module === undefined) return undefined;
    const info = parent === undefined ? topLevelInfo(tree) : nodeInfo(parent);
    const node = info.byQName.get(`${module}:${step.name}`);
    if (node === undefined) return undefined;
    const keys: (SchemaNode | undefined)[] = [];
    for (const p of step.predicates) {
      if (p.kind === 'key') {
        const km = moduleOf(p.qualifier, node.module);
        const kn = km === undefined ? undefined : nodeInfo(node).byQName.get(`${km}:${p.name}`);
        if (kn === undefined || node.kind !== 'list') return undefined;
        keys.push(kn);
      } else if (p.kind === 'dot') {
        if (node.kind !== 'leaf-list') return undefined;
        keys.push(undefined);
      } else {
        if (node.kind !== 'list' && node.kind !== 'leaf-list') return undefined;
        keys.push(undefined);
      }
    }
    nodes.push(node);
    keyNodes.push(keys);
    parent = node;
  }
  return { nodes, keyNodes };
}

function format(
  steps: Step[],
  resolved: { nodes: SchemaNode[]; keyNodes: (SchemaNode | undefined)[][] },
  name: (node: SchemaNode, parentModule: string | undefined) => string,
): string {
  let out = '';
  let parentModule: string | undefined;
  steps.forEach((step, i) => {
    const node = resolved.nodes[i]!;
    out += `/${name(node, parentModule)}`;
    step.predicates.forEach((p, j) => {
      if (p.kind === 'key') out += `[${name(resolved.keyNodes[i]![j]!, node.module)}=${quote(p.value)}]`;
      else if (p.kind === 'dot') out += `[.=${quote(p.value)}]`;
      else out += `[${p.value}]`;
    });
    parentModule = node.module;
  });
  return out;
}

/**
 * Translates an XML instance-identifier (prefixes bound by `lookupNamespace`) into the RFC 7951 form.
 * Returns undefined when the syntax is wrong, a prefix is unbound or a step names no schema node.
 */
export function instanceIdFromXml(
  tree: SchemaTree,
  text: string,
  lookupNamespace: (prefix: string) => string | undefined,
): string | undefined {
  const steps = parse(text.trim());
  if (steps === undefined) return undefined;
  const resolved = resolve(tree, steps, (q) => {
    const ns = lookupNamespace(q ?? '');
    return ns === undefined ? undefined : tree.moduleByNamespace(ns)?.name;
  });
  if (resolved === undefined) return undefined;
  return format(steps, resolved, (n, pm) => (n.module === pm ? n.name : `${n.module}:${n.name}`));
}

/** Checks an RFC 7951 instance-identifier and returns its canonical form, or undefined when invalid. */
export function instanceIdFromJson(tree: SchemaTree, text: string): string | undefined {
  const steps = parse(text);
  if (steps === undefined || steps[0]?.qualifier === undefined) return undefined;
  const resolved = resolve(tree, steps, (q, inherited) =>
    q === undefined ? inherited : tree.moduleByName(q) === undefined ? undefined : q,
  );
  if (resolved === undefined) return undefined;
  return format(steps, resolved, (n, pm) => (n.module === pm ? n.name : `${n.module}:${n.name}`));
}

/**
 * Writes an RFC 7951 instance-identifier (as the tree keeps it) in XML form with schema prefixes; `declare`
 * receives each prefix and namespace the value uses, so the writer can bind them on the element.
 */
export function instanceIdToXml(
  tree: SchemaTree,
  text: string,
  declare: (prefix: string, namespace: string) => void,
): string {
  const steps = parse(text);
  const resolved =
    steps === undefined
      ? undefined
      : resolve(tree, steps, (q, inherited) => (q === undefined ? inherited : q));
  if (steps === undefined || resolved === undefined) return text;
  return format(steps, resolved, (n) => {
    const prefix = prefixOfModule(tree, n.module);
    declare(prefix, n.namespace);
    return `${prefix}:${n.name}`;
  });
}

/**
 * The path steps an RFC 7951 instance-identifier (the form the tree keeps) names, so that the instance is
 * found in O(depth). Undefined when the text names no node, or uses a positional predicate.
 */
export function instanceIdSteps(tree: SchemaTree, text: string): PathStep[] | undefined {
  const steps = parse(text);
  if (steps === undefined || steps[0]?.qualifier === undefined) return undefined;
  const resolved = resolve(tree, steps, (q, inherited) => (q === undefined ? inherited : q));
  if (resolved === undefined) return undefined;
  const out: PathStep[] = [];
  for (let i = 0; i < steps.length; i++) {
    const schema = resolved.nodes[i]!;
    const keys: PathKey[] = [];
    let value: string | undefined;
    for (const [j, p] of steps[i]!.predicates.entries()) {
      if (p.kind === 'pos') return undefined;
      if (p.kind === 'dot') value = p.value;
      else keys.push({ name: resolved.keyNodes[i]![j]!.name, value: p.value });
    }
    out.push(keys.length > 0 ? { schema, keys } : value !== undefined ? { schema, value } : { schema });
  }
  return out;
}
