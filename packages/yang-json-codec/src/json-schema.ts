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
  /** Each member's schema carries the YANG `description` (default: a container's carries its data path). */
  readonly descriptions?: boolean;
  /**
   * Describe the XML encoding too: each member's schema carries an OpenAPI `xml` object with the
   * element's local name and namespace (OpenAPI 3.1 section 4.8.26).
   */
  readonly xml?: boolean;
  /**
   * Called with the object schema of every container and list entry, innermost first; what it
   * returns stands in the object's place (for example a `$ref` to a shared definition).
   */
  readonly objectSchema?: (node: SchemaNode, schema: JsonSchema) => JsonSchema;
  /**
   * Called with the members one `uses` of `grouping` (`module:name`) put in the object of `parent`
   * (undefined at the top level), as `{type: 'object', properties}`. A schema returned (for example a `$ref`) joins the object
   * through `allOf`, which then closes with JSON Schema 2020-12 `unevaluatedProperties: false`;
   * undefined leaves the members in the object itself.
   */
  readonly groupingSchema?: (
    grouping: string,
    schema: JsonSchema,
    parent: SchemaNode | undefined,
  ) => JsonSchema | undefined;
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

/**
 * The JSON Schema of the value of `node`'s member in the RFC 7951 encoding: an object for a
 * container, an array of entry objects for a list or of values for a leaf-list, the value of a
 * leaf. Options as for {@link toJsonSchema}.
 */
export function nodeJsonSchema(
  tree: SchemaTree,
  node: SchemaNode,
  options: JsonSchemaOptions = {},
): JsonSchema {
  return new Generator(tree, options).node(node);
}

/**
 * The JSON Schema of an object whose members are the data children of `parent` (choice and case
 * transparent; names carry their module where it differs from the parent's): the content of an
 * operation's `input` or `output`, of a notification, of a container. Options as for
 * {@link toJsonSchema}; `objectSchema` is not called for the object itself.
 */
export function membersJsonSchema(
  tree: SchemaTree,
  parent: SchemaNode,
  options: JsonSchemaOptions = {},
): JsonSchema {
  return new Generator(tree, options).object(nodeInfo(parent).ordered, parent);
}

/** The outermost grouping between a data node and the node holding its member (choice and case between). */
function groupingOf(node: SchemaNode, holder: SchemaNode | undefined): string | undefined {
  let found: string | undefined;
  for (let n: SchemaNode | undefined = node; n !== undefined && n !== holder; n = n.parent) {
    if (n.grouping !== undefined) found = n.grouping;
  }
  return found;
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
    const parts = new Map<string, Record<string, JsonSchema>>();
    const share = this.options.groupingSchema;
    for (const c of children) {
      if (!isDataKind(c.kind)) continue;
      if (this.options.configOnly && !c.config) continue;
      const grouping = share === undefined ? undefined : groupingOf(c, parent);
      let into = properties;
      if (grouping !== undefined) {
        into = parts.get(grouping) ?? {};
        parts.set(grouping, into);
      }
      into[this.name(c, parent?.module)] = this.node(c);
    }
    const allOf: JsonSchema[] = [];
    for (const [grouping, members] of parts) {
      const shared = share!(grouping, { type: 'object', properties: members }, parent);
      if (shared === undefined) Object.assign(properties, members);
      else allOf.push(shared);
    }
    const out: JsonSchema = { type: 'object', properties, patternProperties: METADATA };
    // A member described in an allOf part is evaluated there (JSON Schema 2020-12 section 11.3).
    if (allOf.length > 0) {
      out.allOf = allOf;
      out.unevaluatedProperties = false;
    } else out.additionalProperties = false;
    if (parent?.kind === 'list' && parent.keys.length > 0) out.required = [...parent.keys];
    return out;
  }

  /** The schema of the member of `n`, with its description and XML name when asked for. */
  node(n: SchemaNode): JsonSchema {
    const out = this.value(n);
    if (this.options.descriptions && n.description !== undefined) out.description = n.description;
    if (this.options.xml) {
      const xml = { name: n.name, namespace: n.namespace };
      // A list entry or leaf-list value is the repeated element (the array is not wrapped).
      if (out.type === 'array') out.items = { ...(out.items as JsonSchema), xml };
      else out.xml = xml;
    }
    if (n.kind !== 'container' && n.kind !== 'list') return out;
    const objectSchema = this.options.objectSchema;
    if (objectSchema === undefined) return out;
    if (n.kind === 'container') return objectSchema(n, out);
    return { ...out, items: objectSchema(n, out.items as JsonSchema) };
  }

  private value(n: SchemaNode): JsonSchema {
    switch (n.kind) {
      case 'container': {
        const out = this.object(nodeInfo(n).ordered, n);
        return this.options.descriptions ? out : { description: n.dataPath, ...out };
      }
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
