import type { SchemaNode, SchemaTree, YangType } from '@yangkit/yang-schema';
import { isDataKind, nodeInfo, topLevelNodes } from './schema-view';
import { resolveLeafref } from './values';

/** A JSON Schema document (draft-07 vocabulary, also valid for OpenAPI 3.1 / JSON Schema 2020-12). */
export type JsonSchema = Record<string, unknown>;

/** Options of {@link toJsonSchema}. */
export interface JsonSchemaOptions {
  /** Only these modules' top-level nodes (default: every implemented module). */
  readonly modules?: readonly string[];
  /** Leave out state data (config false), as for a configuration body (default false). */
  readonly configOnly?: boolean;
  /** Member names without module names (`--simple-json-names`). */
  readonly simpleNames?: boolean;
}

const INT_BOUNDS: Record<string, [number, number]> = {
  int8: [-128, 127],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  uint8: [0, 255],
  uint16: [0, 65535],
  uint32: [0, 4294967295],
};

/** Metadata members (RFC 7952 section 5.2) are allowed anywhere beside data members. */
const METADATA = { '^@': {} };

/**
 * A JSON Schema of the RFC 7951 encoding of a datastore document of `tree`: objects for containers and
 * list entries (unknown members refused, list keys required), arrays for lists and leaf-lists, and per
 * type: integers up to 32 bits as bounded JSON integers, 64-bit integers and decimal64 as strings,
 * `[null]` for empty, enum names, identityref values from the derived identities (both name forms where
 * RFC 7951 6.8 allows them), unions as `anyOf` in member order. For clients and OpenAPI tooling; the
 * codec itself validates with the YANG rules, which are stricter (patterns of every typedef, unique, ...).
 */
export function toJsonSchema(tree: SchemaTree, options: JsonSchemaOptions = {}): JsonSchema {
  const g = new Generator(tree, options);
  const tops = topLevelNodes(tree).filter(
    (n) => options.modules === undefined || options.modules.includes(n.module),
  );
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'RFC 7951 JSON encoding of YANG data',
    ...g.object(tops, undefined),
  };
}

class Generator {
  constructor(
    private readonly tree: SchemaTree,
    private readonly options: JsonSchemaOptions,
  ) {}

  private name(node: SchemaNode, parentModule: string | undefined): string {
    return this.options.simpleNames || node.module === parentModule
      ? node.name
      : `${node.module}:${node.name}`;
  }

  object(children: readonly SchemaNode[], parent: SchemaNode | undefined): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    for (const c of children) {
      if (!isDataKind(c.kind)) continue;
      if (this.options.configOnly && !c.config) continue;
      properties[this.name(c, parent?.module)] = this.node(c);
    }
    const out: JsonSchema = {
      type: 'object',
      properties,
      patternProperties: METADATA,
      additionalProperties: false,
    };
    if (parent?.kind === 'list' && parent.keys.length > 0) out.required = [...parent.keys];
    return out;
  }

  private node(n: SchemaNode): JsonSchema {
    switch (n.kind) {
      case 'container':
        return { description: n.dataPath, ...this.object(nodeInfo(n).ordered, n) };
      case 'list': {
        const out: JsonSchema = { type: 'array', items: this.object(nodeInfo(n).ordered, n) };
        if (n.minElements > 0) out.minItems = n.minElements;
        if (Number.isFinite(n.maxElements)) out.maxItems = n.maxElements;
        return out;
      }
      case 'leaf':
        return this.type(n.type!, n.module, 0);
      case 'leaf-list': {
        const out: JsonSchema = { type: 'array', items: this.type(n.type!, n.module, 0) };
        if (n.minElements > 0) out.minItems = n.minElements;
        if (Number.isFinite(n.maxElements)) out.maxItems = n.maxElements;
        return out;
      }
      case 'anydata':
        return { type: 'object' };
      default:
        return {};
    }
  }

  /** RFC 7951 section 6, per built-in type. */
  private type(type: YangType, leafModule: string, depth: number): JsonSchema {
    const t = resolveLeafref(type);
    if (depth > 16) return {};
    switch (t.base) {
      case 'int8':
      case 'int16':
      case 'int32':
      case 'uint8':
      case 'uint16':
      case 'uint32': {
        const [lo, hi] = INT_BOUNDS[t.base]!;
        const intervals = t.range?.intervals ?? [{ min: BigInt(lo), max: BigInt(hi) }];
        const parts = intervals.map((iv) => ({
          type: 'integer',
          minimum: Number(iv.min),
          maximum: Number(iv.max),
        }));
        return parts.length === 1 ? parts[0]! : { anyOf: parts };
      }
      case 'int64':
      case 'uint64':
        return { type: 'string', pattern: '^[+-]?[0-9]+$' };
      case 'decimal64':
        return { type: 'string', pattern: '^[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)$' };
      case 'boolean':
        return { type: 'boolean' };
      case 'empty':
        return { const: [null] };
      case 'enumeration':
        return { type: 'string', enum: (t.enums ?? []).map((e) => e.name) };
      case 'binary':
        return { type: 'string', pattern: '^[A-Za-z0-9+/\\s]*={0,2}\\s*$' };
      case 'identityref': {
        const names = new Set<string>();
        for (const base of t.identityBases ?? []) {
          for (const id of this.tree.derivedIdentities(base)) {
            names.add(id.qualifiedName);
            if (id.module === leafModule) names.add(id.name);
          }
        }
        return names.size > 0 ? { type: 'string', enum: [...names] } : { type: 'string' };
      }
      case 'instance-identifier':
        return { type: 'string', pattern: '^/' };
      case 'union':
        return { anyOf: (t.members ?? []).map((m) => this.type(m, leafModule, depth + 1)) };
      case 'string': {
        const out: JsonSchema = { type: 'string' };
        const iv = t.length?.intervals;
        if (iv !== undefined && iv.length === 1) {
          if (iv[0]!.min > 0n) out.minLength = Number(iv[0]!.min);
          if (iv[0]!.max < BigInt(Number.MAX_SAFE_INTEGER)) out.maxLength = Number(iv[0]!.max);
        }
        return out;
      }
      default:
        return { type: 'string' };
    }
  }
}
