import {
  type InstanceIdentifierStep,
  parseInstanceIdentifier,
  type SchemaNode,
  type SchemaTree,
} from '@yangkit/yang-schema';

/** One step of a compiled rule path: a data node and the predicates an instance must meet. */
export interface PathStep {
  readonly module: string;
  readonly name: string;
  /** `[key='value']` predicates of a list step, by key name. */
  readonly keys: ReadonlyMap<string, string>;
  /** `[.='value']` of a leaf-list step. */
  readonly value?: string;
}

/**
 * A compiled `path` of a data-node rule (RFC 8341 `node-instance-identifier`): `steps` from the top
 * level, empty for `/` (all datastore contents), or undefined when the path names nothing of the
 * schema (such a rule never matches).
 */
export type CompiledPath = readonly PathStep[] | undefined;

/** Longest path accepted, in characters and steps. */
const MAX_PATH = 4096;
const MAX_STEPS = 64;

/**
 * Compiles a rule path. Prefixes name modules either by module name (as RESTCONF writes them,
 * RFC 7951 section 6.11) or by the prefix the YANG module declares (`/if:interfaces`); a step
 * without prefix is in its parent's module. Predicates follow RFC 7950 section 9.13.
 */
export function compilePath(tree: SchemaTree, text: string): CompiledPath {
  const path = text.trim();
  if (path === '/') return [];
  if (path.length > MAX_PATH) return undefined;
  let parsed: InstanceIdentifierStep[];
  try {
    parsed = parseInstanceIdentifier(path);
  } catch {
    return undefined;
  }
  if (parsed.length > MAX_STEPS) return undefined;
  const steps: PathStep[] = [];
  let module: string | undefined;
  for (const step of parsed) {
    if (step.prefix !== undefined) module = moduleOf(tree, step.prefix);
    if (module === undefined) return undefined;
    const keys = new Map<string, string>();
    let value: string | undefined;
    for (const p of step.predicates) {
      // A rule names instances by key or value; a position would name different entries over time.
      if (p.kind === 'position') return undefined;
      if (p.kind === 'leaf-list') value = p.value;
      else keys.set(p.name, p.value);
    }
    steps.push(
      value === undefined ? { module, name: step.name, keys } : { module, name: step.name, keys, value },
    );
  }
  return steps;
}

/** A module by name, else the implemented module that declares `prefix`. */
function moduleOf(tree: SchemaTree, prefix: string): string | undefined {
  if (tree.moduleByName(prefix)) return prefix;
  return tree.modules.find((m) => m.implemented && m.prefix === prefix)?.name;
}

/**
 * Whether an instance meets path step `step`: its schema node has the step's name and module,
 * and its key (list entry: key values joined by NUL, leaf-list entry: the value) meets the
 * predicates. Works on data nodes and on the steps of a logged change alike.
 */
export function stepMatches(step: PathStep, schema: SchemaNode, key: string): boolean {
  if (schema.name !== step.name || schema.module !== step.module) return false;
  if (step.value !== undefined && (schema.kind !== 'leaf-list' || key !== step.value)) return false;
  if (step.keys.size === 0) return true;
  const values = schema.keyNodes.length === 1 ? [key] : key.split('\u0000');
  const keys = schema.keyNodes;
  for (const [name, want] of step.keys) {
    let index = 0;
    while (index < keys.length && keys[index]!.name !== name) index++;
    if (index === keys.length || values[index] !== want) return false;
  }
  return true;
}
