import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { ErrorPath } from './errors';
import type { DataNode } from './instance';
import { type PathStep, pathOf } from './path-step';
import { prefixOfModule } from './schema-view';

/** Quotes a predicate value as instance-identifiers write it (RFC 7950 9.13.2: either quote style). */
export function quoteValue(value: string): string {
  return value.includes("'") ? `"${value}"` : `'${value}'`;
}

/**
 * Where the top nodes of a document sit when it is not the datastore root: the instance path of
 * their parent (a resource body's target, from the request URI) and that parent's module.
 */
export interface PathBase {
  readonly path: ErrorPath;
  readonly module: string;
}

/**
 * The instance-identifier of `node` in RFC 7951 (module names) and XML (schema prefixes) form,
 * below `base` when the document's top nodes have a parent outside it.
 */
export function pathOfNode(tree: SchemaTree, node: DataNode | undefined, base?: PathBase): ErrorPath {
  return pathOfSteps(tree, node === undefined ? [] : pathOf(node), base);
}

/** The instance-identifier of the instance `steps` name (see {@link pathOfNode}). */
export function pathOfSteps(tree: SchemaTree, steps: readonly PathStep[], base?: PathBase): ErrorPath {
  let json = base === undefined || base.path.json === '/' ? '' : base.path.json;
  let xml = base === undefined || base.path.xml === '/' ? '' : base.path.xml;
  let parentModule = base?.module ?? '';
  for (const step of steps) {
    // An operation's input or output appears in paths as the operation itself, as libyang writes them.
    const s =
      (step.schema.kind === 'input' || step.schema.kind === 'output') && step.schema.parent
        ? step.schema.parent
        : step.schema;
    const prefix = prefixOfModule(tree, s.module);
    json += s.module === parentModule ? `/${s.name}` : `/${s.module}:${s.name}`;
    xml += `/${prefix}:${s.name}`;
    if (step.keys !== undefined) {
      for (const k of step.keys) {
        json += `[${k.name}=${quoteValue(k.value)}]`;
        xml += `[${prefix}:${k.name}=${quoteValue(k.value)}]`;
      }
    } else if (step.value !== undefined) {
      json += `[.=${quoteValue(step.value)}]`;
      xml += `[.=${quoteValue(step.value)}]`;
    }
    parentModule = s.module;
  }
  return { json: json === '' ? '/' : json, xml: xml === '' ? '/' : xml };
}

/** The path of a child named `module:name` (schema node or raw name) below `parent`. */
export function pathOfChild(
  tree: SchemaTree,
  parent: DataNode | undefined,
  child: SchemaNode | { readonly module: string | undefined; readonly name: string },
  top?: PathBase,
): ErrorPath {
  const base = pathOfNode(tree, parent, top);
  const parentModule = parent === undefined ? top?.module : parent.schema.module;
  const module = child.module;
  const jsonStep = module === undefined || module === parentModule ? child.name : `${module}:${child.name}`;
  const xmlStep = module === undefined ? child.name : `${prefixOfModule(tree, module)}:${child.name}`;
  return {
    json: `${base.json === '/' ? '' : base.json}/${jsonStep}`,
    xml: `${base.xml === '/' ? '' : base.xml}/${xmlStep}`,
  };
}

/**
 * The namespaces an XML instance-identifier written with the schema's module prefixes (an `ErrorPath.xml`)
 * uses, prefix to URI, so that the path can be declared where it is written (RFC 6241 error-path).
 */
export function xmlPathNamespaces(tree: SchemaTree, xmlPath: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xmlPath.matchAll(/[/[]([A-Za-z_][\w.-]*):/g)) {
    const prefix = m[1]!;
    if (out.has(prefix)) continue;
    const module = tree.modules.find((mod) => mod.prefix === prefix && tree.moduleByName(mod.name) === mod);
    if (module !== undefined) out.set(prefix, module.namespace);
  }
  return out;
}
