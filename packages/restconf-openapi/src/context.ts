import { type SchemaNode, type SchemaTree, treeDiagramEntry } from '@yangkit/yang-schema';
import { refTo } from './bodies.js';
import type { SchemaComponents } from './components.js';
import type { BodySchemas } from './schemas.js';

/** An OpenAPI object (path item, operation, response, ...). */
export type OpenApiObject = Record<string, unknown>;

/** What the builders of one document share. */
export interface BuildContext {
  readonly tree: SchemaTree;
  readonly bodies: BodySchemas;
  readonly components: SchemaComponents;
  /** `paths` of the document, relative to the RESTCONF root. */
  readonly paths: Record<string, OpenApiObject>;
  /** Whether a node (and what is below it) is documented. */
  readonly include: (node: SchemaNode) => boolean;
  /** Whether the modules of the document own a node: the node's module or an ancestor's is one of them. */
  readonly inScope: (node: SchemaNode) => boolean;
  /** JSON member names without module names. */
  readonly simpleNames: boolean;
  /** The error statuses every operation may answer besides its own (401 with authentication). */
  readonly commonErrors: readonly string[];
}

/**
 * The `x-yang` extension of a path item: what the node is, for tools that draw the schema (the
 * parts of its RFC 8340 tree diagram line, relative to its parent's module).
 */
export function yangExtension(ctx: BuildContext, node: SchemaNode, parentModule: string): OpenApiObject {
  const e = treeDiagramEntry(ctx.tree, node, parentModule);
  return {
    kind: node.kind,
    module: node.module,
    name: node.name,
    path: node.dataPath,
    flags: e.flags,
    label: e.label,
    ...(e.type === '' ? {} : { type: e.type }),
    ...(e.keys === '' ? {} : { keys: [...node.keys] }),
    ...(node.default === undefined ? {} : { default: node.default }),
    ...(node.units === undefined ? {} : { units: node.units }),
  };
}

/** Error responses: each of `codes` and the common ones answer an `ietf-restconf:errors` body. */
export function errorResponses(ctx: BuildContext, codes: readonly string[]): OpenApiObject {
  const out: OpenApiObject = {};
  for (const code of [...codes, ...ctx.commonErrors].sort()) out[code] = refTo('responses', 'errors');
  return out;
}

/** The tag of the operations of a node: its module. */
export function tagsOf(node: SchemaNode): string[] {
  return [node.module];
}
