import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { adoptKeyIndex } from './child-index';
import { addChild, firstChild, type Group, sizeOf } from './child-map';
import { CodecError, type CodecErrorCode, type ErrorPath, type ErrorTag } from './errors';
import { type Annotation, type ChildMap, createNode, type DataNode, type DocumentKind } from './instance';
import { knownAnnotation } from './known-annotations';
import { type PathBase, pathOfChild, pathOfNode } from './paths';
import type { ValueError } from './values';
import { valueFromJson, valueFromXml } from './values';

/** Options of {@link decodeXml} and {@link decodeJson}. */
export interface DecodeOptions {
  /** What the document holds (default 'data'). */
  readonly kind?: DocumentKind;
  /**
   * rpc-*: the rpc as `module:name`; action-*: the action as a schema path (`/ex:a/b/reset`);
   * notification: optional, the expected notification. A SchemaNode is accepted too.
   */
  readonly operation?: string | SchemaNode;
  /** resource: the schema parent of the resource (undefined = a top-level node). */
  readonly parent?: SchemaNode;
  /**
   * resource: the instance path of that parent (e.g. from the request URI), so that error paths
   * name the whole data-resource path rather than start at the body's node.
   */
  readonly parentPath?: ErrorPath;
  /** yang-data: the structure as `module:name` (e.g. `ietf-restconf:yang-errors`); found by content if absent. */
  readonly yangData?: string;
  /** Unknown elements, members and metadata are errors (default true); when false they are skipped. */
  readonly strict?: boolean;
  /** JSON: accept member names without module (the `--simple-json-names` form). */
  readonly simpleNames?: boolean;
  /** Largest accepted text in UTF-16 code units (default 256 MiB). */
  readonly maxSize?: number;
  /** Deepest accepted nesting (default 256). */
  readonly maxDepth?: number;
  /**
   * Most data nodes in the document, list entries and leaves included (default: no limit); more
   * is `LIMIT_EXCEEDED` (too-big), thrown as the node past the limit is read, before the rest is.
   */
  readonly maxNodes?: number;
  /** Longest accepted list key value in UTF-8 bytes (default: no limit); longer is invalid-value. */
  readonly maxKeyLength?: number;
  /** Longest accepted leaf or leaf-list value in UTF-8 bytes (default: no limit); longer is invalid-value. */
  readonly maxStringLength?: number;
  /**
   * XML edit-config content (RFC 6241 section 7.2): accept the `nc:operation` attribute and the
   * `yang:insert`, `yang:key`, `yang:value` attributes of RFC 7950 section 7.8.6, kept as the annotations
   * `ietf-netconf:operation` and `yang:insert`/`key`/`value`; a leaf deleted or removed keeps no value (it
   * may be empty whatever its type). Default false.
   */
  readonly editAttributes?: boolean;
}

/** Data nodes decoded between two yields of a decoder in steps. */
const DECODE_STEP = 256;

/** Groups of up to this many list entries or leaf-list values are checked for a repeat by a scan. */
const SCAN_LIMIT = 8;

/** State of one decode run shared by the XML and JSON readers: limits, error builders, key indexes. */
export class DecodeContext {
  readonly tree: SchemaTree;
  readonly strict: boolean;
  /** 'config' kind: config false nodes are errors (RFC 8040 4.4.1: a config body has no state data). */
  readonly configOnly: boolean;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxKeyLength: number;
  readonly maxStringLength: number;
  /** Edit-config attributes are accepted (see {@link DecodeOptions.editAttributes}). */
  readonly editAttributes: boolean;
  /** Where the document's top nodes sit (a resource body below its parent). */
  readonly #base: PathBase | undefined;
  #nodes = 0;
  #nextStep = DECODE_STEP;
  /**
   * Each list (or configuration leaf-list) group past {@link SCAN_LIMIT} instances by key (or value),
   * for the duplicate checks; the group's key index too.
   */
  readonly #largeGroups = new WeakMap<readonly DataNode[], Map<string, DataNode>>();

  constructor(tree: SchemaTree, options: DecodeOptions) {
    this.tree = tree;
    this.strict = options.strict ?? true;
    this.configOnly = options.kind === 'config';
    this.maxDepth = options.maxDepth ?? 256;
    this.maxNodes = options.maxNodes ?? Number.POSITIVE_INFINITY;
    this.maxKeyLength = options.maxKeyLength ?? Number.POSITIVE_INFINITY;
    this.maxStringLength = options.maxStringLength ?? Number.POSITIVE_INFINITY;
    this.editAttributes = options.editAttributes ?? false;
    this.#base =
      options.kind === 'resource' && options.parent !== undefined && options.parentPath !== undefined
        ? { path: options.parentPath, module: options.parent.module }
        : undefined;
  }

  /** A new data node of the document, counted against {@link DecodeOptions.maxNodes}. */
  node(schema: SchemaNode, parent: DataNode | undefined): DataNode {
    if (++this.#nodes > this.maxNodes) {
      throw new CodecError('LIMIT_EXCEEDED', `the document has more than ${this.maxNodes} data nodes`, {
        errorTag: 'too-big',
      });
    }
    return createNode(schema, parent);
  }

  /** True once per {@link DECODE_STEP} nodes decoded: where a decoder in steps yields. */
  stepDue(): boolean {
    if (this.#nodes < this.#nextStep) return false;
    this.#nextStep = this.#nodes + DECODE_STEP;
    return true;
  }

  /** Builds the error for a node that already exists (or its parent). */
  error(
    code: CodecErrorCode,
    errorTag: ErrorTag,
    message: string,
    path: ErrorPath,
    extra: { errorAppTag?: string | undefined; errorInfo?: Record<string, string> } = {},
  ): CodecError {
    return new CodecError(code, message, {
      errorTag,
      errorAppTag: extra.errorAppTag,
      errorPath: path,
      errorInfo: extra.errorInfo,
    });
  }

  /** The path of a (possibly not yet created) child of `parent`. */
  childPath(
    parent: DataNode | undefined,
    child: SchemaNode | { module: string | undefined; name: string },
  ): ErrorPath {
    return pathOfChild(this.tree, parent, child, this.#base);
  }

  nodePath(node: DataNode | undefined): ErrorPath {
    return pathOfNode(this.tree, node, this.#base);
  }

  /** An element or member that names no schema node here. */
  unknown(parent: DataNode | undefined, module: string | undefined, name: string, where: string): CodecError {
    const path = this.childPath(parent, { module, name });
    return this.error(
      'UNKNOWN_ELEMENT',
      'unknown-element',
      `unknown node "${name}" ${where} (${path.json})`,
      path,
      {
        errorInfo: { 'bad-element': name },
      },
    );
  }

  /** A value its type refuses. */
  badValue(parent: DataNode | undefined, schema: SchemaNode, r: ValueError, shown: string): CodecError {
    const path = this.childPath(parent, schema);
    const message =
      r.errorMessage ?? `invalid value for ${schema.kind} "${schema.name}" (${path.json}): ${r.message}`;
    return this.error('INVALID_VALUE', 'invalid-value', message, path, {
      errorAppTag: r.errorAppTag,
      errorInfo: { 'bad-value': shown.length > 256 ? `${shown.slice(0, 253)}...` : shown },
    });
  }

  /**
   * Refuses a value longer than the limit of its node: a list key (it becomes part of URIs, such as
   * a Location header) or any other leaf value; the message names the limit, not the value.
   */
  checkLength(parent: DataNode | undefined, schema: SchemaNode, value: string): void {
    const limit = schema.isKey ? Math.min(this.maxKeyLength, this.maxStringLength) : this.maxStringLength;
    // UTF-8 takes 1 to 3 bytes per UTF-16 code unit: count the bytes only when it could matter.
    if (value.length * 3 <= limit) return;
    const bytes = value.length > limit ? value.length : Buffer.byteLength(value);
    if (bytes <= limit) return;
    const path = this.childPath(parent, schema);
    const what = schema.isKey ? 'list key' : `${schema.kind} value`;
    throw this.error(
      'INVALID_VALUE',
      'invalid-value',
      `the ${what} "${schema.name}" (${path.json}) is longer than the limit of ${limit} bytes`,
      path,
      { errorInfo: { 'bad-element': schema.name } },
    );
  }

  /** Refuses state data in a configuration body. */
  checkConfig(parent: DataNode | undefined, schema: SchemaNode): void {
    if (this.configOnly && !schema.config) {
      const path = this.childPath(parent, schema);
      throw this.error(
        'CONFIG_FALSE',
        'invalid-value',
        `${schema.kind} "${schema.name}" is state data (config false) and cannot appear in a configuration body (${path.json})`,
        path,
        { errorInfo: { 'bad-element': schema.name } },
      );
    }
  }

  /** A leaf (or container) that appears twice where one instance is allowed. */
  duplicate(parent: DataNode | undefined, schema: SchemaNode): CodecError {
    const path = this.childPath(parent, schema);
    return this.error(
      'BAD_ELEMENT',
      'bad-element',
      `${schema.kind} "${schema.name}" appears more than once (${path.json})`,
      path,
      {
        errorInfo: { 'bad-element': schema.name },
      },
    );
  }

  /**
   * Checks a finished list entry, the last instance of `group`: every key present (RFC 7950 7.8.2) and
   * no earlier entry of the group with the same keys (7.8.2: key values are unique).
   */
  checkListEntry(entry: DataNode, group: Group): void {
    const schema = entry.schema;
    if (schema.keyNodes.length === 0) return;
    if (!this.repeated(group, this.listKey(entry), true)) return;
    const path = this.nodePath(entry);
    throw this.error(
      'DATA_EXISTS',
      'data-exists',
      `list "${schema.name}" has two entries with the same keys (${path.json})`,
      path,
      {
        errorInfo: { 'bad-element': schema.name },
      },
    );
  }

  /** The key values of a list entry as one string; an error when a key leaf is missing. */
  private listKey(entry: DataNode): string {
    const keyNodes = entry.schema.keyNodes;
    let key = '';
    for (let i = 0; i < keyNodes.length; i++) {
      const k = keyNodes[i]!;
      const v = firstChild(entry.children, k)?.value;
      if (v === undefined) {
        const path = this.childPath(entry, k);
        throw this.error(
          'MISSING_ELEMENT',
          'missing-element',
          `list "${entry.schema.name}" entry lacks its key leaf "${k.name}" (${path.json})`,
          path,
          { errorInfo: { 'bad-element': k.name } },
        );
      }
      key = i === 0 ? v : `${key}\u0000${v}`;
    }
    return key;
  }

  /** RFC 7950 7.7: the values of a configuration leaf-list are unique; `node` is the last of `group`. */
  checkLeafListValue(node: DataNode, group: Group): void {
    if (!node.schema.config || !this.repeated(group, node.value!, false)) return;
    const path = this.nodePath(node);
    throw this.error(
      'DATA_EXISTS',
      'data-exists',
      `leaf-list "${node.schema.name}" has the value "${node.value}" twice (${path.json})`,
      path,
      { errorInfo: { 'bad-element': node.schema.name } },
    );
  }

  /**
   * Whether an instance of `group` before its last one has the key (`list`) or value `last`, the last
   * one's. Most groups are small (one address of an interface, say): they are scanned, with nothing
   * allocated; a group that grows past {@link SCAN_LIMIT} gets a Set of its keys, kept until the end.
   */
  private repeated(group: Group, last: string, list: boolean): boolean {
    const size = sizeOf(group);
    if (size === 1) return false;
    const nodes = group as readonly DataNode[];
    if (size <= SCAN_LIMIT) {
      for (let i = 0; i < size - 1; i++) {
        if ((list ? this.listKey(nodes[i]!) : nodes[i]!.value) === last) return true;
      }
      return false;
    }
    let seen = this.#largeGroups.get(nodes);
    if (seen === undefined) {
      seen = new Map();
      for (let i = 0; i < size - 1; i++)
        seen.set(list ? this.listKey(nodes[i]!) : nodes[i]!.value!, nodes[i]!);
      this.#largeGroups.set(nodes, seen);
      // The keys are those a lookup by key uses (`entryKey`): the group's key index comes at no
      // second pass, and a datastore the document goes into has it from the start.
      adoptKeyIndex(nodes, seen);
    }
    if (seen.has(last)) return true;
    seen.set(last, nodes[size - 1]!);
    return false;
  }

  /** Decodes an annotation value through its md:annotation type; unknown annotations of known modules stay text. */
  annotation(
    owner: DataNode | undefined,
    ownerSchema: SchemaNode | undefined,
    module: string,
    name: string,
    value: unknown,
    lookupNamespace: ((prefix: string) => string | undefined) | undefined,
  ): Annotation | undefined {
    const def = this.tree.annotations.get(`${module}:${name}`);
    const path =
      ownerSchema === undefined ? this.nodePath(owner) : this.childPath(owner?.parent, ownerSchema);
    let known = def === undefined ? knownAnnotation(module, name) : undefined;
    if (known?.edit === true && !this.editAttributes) known = undefined;
    if (known !== undefined) {
      const text = typeof value === 'boolean' && known.json === 'boolean' ? String(value) : value;
      const ok =
        known.json === 'boolean'
          ? lookupNamespace
            ? text === 'true' || text === 'false'
            : typeof value === 'boolean'
          : typeof value === 'string';
      if (!ok) {
        throw this.error(
          'INVALID_VALUE',
          'invalid-value',
          `invalid value of metadata "${module}:${name}" (${path.json}): expected a ${known.json}`,
          path,
          {
            errorInfo: { 'bad-attribute': `${module}:${name}` },
          },
        );
      }
      return { module, name, value: String(text) };
    }
    if (def === undefined) {
      if (this.tree.moduleByName(module) === undefined || typeof value !== 'string') {
        if (!this.strict) return undefined;
        throw this.error(
          'UNKNOWN_ATTRIBUTE',
          'unknown-attribute',
          `unknown metadata "${module}:${name}" (${path.json})`,
          path,
          {
            errorInfo: { 'bad-attribute': `${module}:${name}` },
          },
        );
      }
      return { module, name, value };
    }
    const r = lookupNamespace
      ? valueFromXml(this.tree, def.type, value as string, { lookup: lookupNamespace })
      : valueFromJson(this.tree, def.type, value, module);
    if (!r.ok) {
      throw this.error(
        'INVALID_VALUE',
        'invalid-value',
        `invalid value of metadata "${module}:${name}" (${path.json}): ${r.message}`,
        path,
        { errorAppTag: r.errorAppTag, errorInfo: { 'bad-attribute': `${module}:${name}` } },
      );
    }
    return { module, name, value: r.value };
  }
}

/** Adds `node` to its parent's child map. */
export function attach(children: ChildMap, node: DataNode): void {
  addChild(children, node);
}
