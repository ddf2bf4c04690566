import {
  type PathSchema,
  type PathSchemaNode,
  parseApiPath,
  type ResolvedApiPath,
  RestconfUriError,
  resolveApiPath,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
} from '@yangkit/restconf-uri';
import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import { CodecError, decodeXml, xmlPathNamespaces } from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { type PatchErrorPath, YangPatchError, type YangPatchErrorCode } from './errors.js';
import type { PathStep } from './types.js';

const DATA_KINDS = new Set(['container', 'list', 'leaf', 'leaf-list', 'anydata', 'anyxml']);

function asPathNode(node: SchemaNode | undefined): PathSchemaNode | undefined {
  // restconf-uri's PathSchemaNode is a structural subset of SchemaNode; only the kind union is narrower.
  return node as unknown as PathSchemaNode | undefined;
}

const adapters = new WeakMap<SchemaTree, PathSchema>();

/** The compiled schema seen through restconf-uri's {@link PathSchema} lookup interface. */
export function pathSchemaOf(tree: SchemaTree): PathSchema {
  let adapter = adapters.get(tree);
  if (adapter === undefined) {
    adapter = {
      topLevel: (module, name) => asPathNode(tree.topLevel(module, name)),
      child: (parent, module, name) => asPathNode((parent as unknown as SchemaNode).dataChild(module, name)),
      modulesDefining: (name) =>
        tree.modules
          .filter((m) => m.implemented && tree.topLevel(m.name, name) !== undefined)
          .map((m) => m.name),
    };
    adapters.set(tree, adapter);
  }
  return adapter;
}

/** Converts path steps back to restconf-uri's resolved form. */
export function toResolved(steps: readonly PathStep[]): ResolvedApiPath {
  return {
    steps: steps.map((s) => ({
      node: s.schema as unknown as PathSchemaNode,
      ...(s.keys === undefined ? {} : { keys: s.keys }),
      ...(s.value === undefined ? {} : { value: s.value }),
    })),
  };
}

/** Converts restconf-uri's resolved form to path steps. */
export function fromResolved(resolved: ResolvedApiPath): PathStep[] {
  return resolved.steps.map((s) => ({
    schema: s.node as unknown as SchemaNode,
    ...(s.keys === undefined ? {} : { keys: s.keys }),
    ...(s.value === undefined ? {} : { value: s.value }),
  }));
}

/**
 * Resolves an api-path (RFC 8040 section 3.5.3) against the schema, relative to `base` when given, as an
 * edit `target` or `point` is relative to the request target (RFC 8072 section 2.4).
 */
export function resolvePath(
  tree: SchemaTree,
  text: string,
  base: readonly PathStep[],
  code: YangPatchErrorCode,
  what: string,
): PathStep[] {
  try {
    const parsed = parseApiPath(text);
    const resolved = resolveApiPath(parsed, pathSchemaOf(tree), { base: toResolved(base) });
    const steps = fromResolved(resolved).map((step, i) =>
      i < base.length ? step : canonicalStep(tree, step),
    );
    const last = steps[steps.length - 1];
    if (last !== undefined && !DATA_KINDS.has(last.schema.kind)) {
      throw new YangPatchError(
        code,
        `${what} "${text}" names the ${last.schema.kind} "${last.schema.name}", not data`,
      );
    }
    return steps;
  } catch (cause) {
    if (YangPatchError.isInstance(cause)) throw cause;
    const detail =
      RestconfUriError.isInstance(cause) || CodecError.isInstance(cause) ? cause.message : String(cause);
    throw new YangPatchError(code, `${what} "${text}" is not a data resource: ${detail}`, {
      cause,
      errorInfo: { 'bad-value': text.length > 256 ? `${text.slice(0, 253)}...` : text },
    });
  }
}

/**
 * The step with its key (or leaf-list) values in the canonical form the codec stores (RFC 7950 section 9.1),
 * so that `/entry=05` finds the entry whose uint key is 5. String-typed values are their own canonical form;
 * the others are decoded by the codec, which also checks them against their types.
 */
function canonicalStep(tree: SchemaTree, step: PathStep): PathStep {
  const s = step.schema;
  const values = step.keys?.map((k) => k.value) ?? (step.value === undefined ? [] : [step.value]);
  const leaves =
    step.keys === undefined ? [s] : step.keys.map((k) => s.keyNodes.find((n) => n.name === k.name));
  if (values.length === 0 || leaves.every((n) => n?.type?.base === 'string')) return step;
  let declarations = '';
  for (const v of values) {
    // An identityref in a URI is written module:identity (RFC 8040 section 3.5.3); bind the module name.
    const module = v.includes(':') ? tree.moduleByName(v.slice(0, v.indexOf(':'))) : undefined;
    if (module !== undefined && !declarations.includes(` xmlns:${module.name}=`)) {
      declarations += ` xmlns:${module.name}="${escapeXmlAttribute(module.namespace)}"`;
    }
  }
  const open = `<${s.name} xmlns="${escapeXmlAttribute(s.namespace)}"${declarations}>`;
  const xml =
    step.keys === undefined
      ? `${open}${escapeXmlText(step.value ?? '')}</${s.name}>`
      : `${open}${step.keys.map((k) => `<${k.name}>${escapeXmlText(k.value)}</${k.name}>`).join('')}</${s.name}>`;
  const parent = dataParent(s);
  const node = [
    ...decodeXml(tree, xml, { kind: 'resource', ...(parent ? { parent } : {}) }).children.values(),
  ][0]?.[0];
  if (node === undefined) return step;
  if (step.keys === undefined) return node.value === undefined ? step : { schema: s, value: node.value };
  return {
    schema: s,
    keys: step.keys.map((k) => {
      const leaf = s.keyNodes.find((n) => n.name === k.name);
      return { name: k.name, value: (leaf && node.children?.get(leaf)?.[0]?.value) ?? k.value };
    }),
  };
}

/** The error-path of a data node in both encodings, prefixes taken from the modules' own prefixes. */
export function errorPathOf(tree: SchemaTree, steps: readonly PathStep[]): PatchErrorPath | undefined {
  if (steps.length === 0) return undefined;
  const prefixes = new Map<string, string>();
  for (const s of steps) {
    const m = tree.moduleByName(s.schema.module);
    if (m !== undefined) prefixes.set(m.name, m.prefix);
  }
  const resolved = toResolved(steps);
  const xml = toInstanceIdentifier(resolved, { prefixes });
  const namespaces: Record<string, string> = {};
  for (const d of xml.namespaces) namespaces[d.prefix] = d.namespace;
  return { json: toJsonInstanceIdentifier(resolved), xml: xml.path, namespaces };
}

/** The nearest data ancestor of a schema node (choice and case are transparent), undefined at the top. */
export function dataParent(node: SchemaNode): SchemaNode | undefined {
  let p = node.parent;
  while (p !== undefined && (p.kind === 'choice' || p.kind === 'case')) p = p.parent;
  return p;
}

/**
 * The namespaces an XML instance-identifier written with the schema's module prefixes uses (for an
 * error-path that comes from the codec), so that the path can be declared where it is written.
 */
export function namespacesOf(tree: SchemaTree, xmlPath: string): Record<string, string> {
  return Object.fromEntries(xmlPathNamespaces(tree, xmlPath));
}

/** The api-path text of steps, for messages. */
export function describePath(steps: readonly PathStep[]): string {
  if (steps.length === 0) return '/';
  return toJsonInstanceIdentifier(toResolved(steps));
}
