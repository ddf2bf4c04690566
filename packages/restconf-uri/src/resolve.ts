import type { ApiPath, ApiPathSegment } from './api-path.js';
import { formatApiPath } from './api-path.js';
import { RestconfUriError } from './errors.js';
import type { PathSchema, PathSchemaNode } from './schema.js';

/** A list key value with the name of its key leaf. */
export interface KeyValue {
  readonly name: string;
  readonly value: string;
}

/** One resolved step: the schema node and, for a list entry, its keys; for a leaf-list entry, its value. */
export interface ResolvedStep {
  readonly node: PathSchemaNode;
  /** Key values mapped to key leaf names, in key order (list entries only). */
  readonly keys?: readonly KeyValue[];
  /** The instance value (leaf-list entries only). */
  readonly value?: string;
}

/** An api-path resolved against a schema. */
export interface ResolvedApiPath {
  readonly steps: readonly ResolvedStep[];
}

/** Options of {@link resolveApiPath}. */
export interface ResolveApiPathOptions {
  /**
   * Accept an unqualified first segment when `schema.modulesDefining` names exactly one module
   * for it (the spec's rule for operation names, extended to data). Default false: RFC 8040
   * section 3.5.3 requires the module name on the first segment.
   */
  readonly allowUnqualifiedTopLevel?: boolean;
  /**
   * Resolve `path` relative to this already resolved path, as a YANG Patch edit `target` is
   * relative to the request target (RFC 8072 section 2.4). The result holds the base steps
   * followed by the new ones. Default: the datastore.
   */
  readonly base?: ResolvedApiPath;
}

const TRAVERSABLE = new Set<PathSchemaNode['kind']>(['container', 'list']);

/**
 * Resolves a parsed api-path against a schema (RFC 8040 section 3.5.3).
 *
 * Rules: the first segment names its module; a later segment without a module belongs to its
 * parent's module; a list entry gives exactly one value per key; a leaf-list entry gives exactly
 * one value; `=` on anything else is an error; a list or leaf-list without `=` may only be the
 * last segment (it addresses all entries); nothing follows a leaf, leaf-list, anydata, anyxml or
 * action; rpcs and notifications are not data resources.
 *
 * An unknown schema node is a malformed request URI, not a missing instance, so it is
 * `unknown-element` with status 400 (RFC 8040 section 7 maps unknown-element to 400; 404 stays
 * for a well-formed path whose instance does not exist, which only the datastore can tell).
 *
 * @throws {RestconfUriError} `PATH_*` codes naming the segment
 */
export function resolveApiPath(
  path: ApiPath,
  schema: PathSchema,
  options: ResolveApiPathOptions = {},
): ResolvedApiPath {
  const steps: ResolvedStep[] = [...(options.base?.steps ?? [])];
  let parent: PathSchemaNode | undefined = steps[steps.length - 1]?.node;
  path.segments.forEach((segment, index) => {
    const where = () => describe(path, index);
    if (parent !== undefined && !TRAVERSABLE.has(parent.kind)) {
      throw new RestconfUriError(
        'PATH_NOT_TRAVERSABLE',
        `${where()}: '${segment.name}' cannot follow the ${parent.kind} '${parent.name}'`,
        { badElement: segment.name },
      );
    }
    if (parent !== undefined) {
      const last = steps[steps.length - 1]!;
      if (parent.kind === 'list' && last.keys === undefined && (parent.keys?.length ?? 0) > 0) {
        throw new RestconfUriError(
          'PATH_KEY_MISMATCH',
          `${where()}: list '${parent.name}' needs its key values (${parent.keys!.join(', ')}) before a child`,
          { badElement: parent.name },
        );
      }
    }
    const node =
      parent === undefined
        ? lookupTop(segment, schema, options, where)
        : lookupChild(segment, parent, schema, where);
    steps.push(step(node, segment, index === path.segments.length - 1, where));
    parent = node;
  });
  return { steps };
}

function describe(path: ApiPath, index: number): string {
  const prefix = { segments: path.segments.slice(0, index + 1) };
  let text: string;
  try {
    text = formatApiPath(prefix);
  } catch {
    text = `segment ${index + 1}`;
  }
  return `api-path segment ${index + 1} (${text})`;
}

function unknown(where: string, segment: ApiPathSegment, extra = ''): RestconfUriError {
  const name = segment.module === undefined ? segment.name : `${segment.module}:${segment.name}`;
  return new RestconfUriError('PATH_UNKNOWN_NODE', `${where}: unknown schema node '${name}'${extra}`, {
    badElement: name,
  });
}

function lookupTop(
  segment: ApiPathSegment,
  schema: PathSchema,
  options: ResolveApiPathOptions,
  where: () => string,
): PathSchemaNode {
  let module = segment.module;
  if (module === undefined) {
    const candidates = schema.modulesDefining?.(segment.name) ?? [];
    if (options.allowUnqualifiedTopLevel === true && candidates.length === 1) {
      module = candidates[0]!;
    } else {
      const hint =
        candidates.length > 0 ? `; write ${candidates.map((m) => `${m}:${segment.name}`).join(' or ')}` : '';
      throw new RestconfUriError(
        'PATH_MODULE_REQUIRED',
        `${where()}: the first segment '${segment.name}' must be written <module>:${segment.name}${hint}`,
        { badElement: segment.name },
      );
    }
  }
  const node = schema.topLevel(module, segment.name);
  if (node === undefined) throw unknown(where(), segment);
  if (node.kind === 'rpc' || node.kind === 'notification') {
    throw new RestconfUriError(
      'PATH_NOT_DATA',
      `${where()}: '${module}:${segment.name}' is ${node.kind === 'rpc' ? 'an rpc (invoke it under /operations)' : 'a notification'}, not a data resource`,
      { badElement: segment.name },
    );
  }
  return node;
}

function lookupChild(
  segment: ApiPathSegment,
  parent: PathSchemaNode,
  schema: PathSchema,
  where: () => string,
): PathSchemaNode {
  const node = schema.child(parent, segment.module ?? parent.module, segment.name);
  if (node === undefined) {
    // An augmenting module's node written without its module name lands here too (RFC 8040
    // section 3.5.3: a node from another module than its parent's must be qualified).
    throw unknown(where(), segment, ` under '${parent.name}'`);
  }
  if (node.kind === 'rpc' || node.kind === 'notification') {
    throw new RestconfUriError(
      'PATH_NOT_DATA',
      `${where()}: '${segment.name}' is a ${node.kind}, not a data resource`,
      {
        badElement: segment.name,
      },
    );
  }
  return node;
}

function step(
  node: PathSchemaNode,
  segment: ApiPathSegment,
  last: boolean,
  where: () => string,
): ResolvedStep {
  const { keys } = segment;
  if (node.kind === 'list') {
    const keyNames = node.keys ?? [];
    if (keys === undefined) {
      if (!last && keyNames.length > 0) return { node }; // reported when the child is looked up
      if (!last) {
        throw new RestconfUriError(
          'PATH_KEY_MISMATCH',
          `${where()}: list '${node.name}' has no keys, so its entries cannot be addressed`,
          { badElement: node.name },
        );
      }
      return { node };
    }
    if (keyNames.length === 0) {
      throw new RestconfUriError(
        'PATH_KEY_MISMATCH',
        `${where()}: list '${node.name}' has no keys, so its entries cannot be addressed`,
        { badElement: node.name },
      );
    }
    if (keys.length !== keyNames.length) {
      throw new RestconfUriError(
        'PATH_KEY_MISMATCH',
        `${where()}: list '${node.name}' takes ${keyNames.length} key value${keyNames.length === 1 ? '' : 's'} (${keyNames.join(', ')}), got ${keys.length}`,
        { badElement: node.name },
      );
    }
    return { node, keys: keyNames.map((name, i) => ({ name, value: keys[i]! })) };
  }
  if (node.kind === 'leaf-list') {
    if (keys === undefined) return { node };
    if (keys.length !== 1) {
      throw new RestconfUriError(
        'PATH_KEY_MISMATCH',
        `${where()}: leaf-list '${node.name}' takes exactly one value, got ${keys.length} (percent-encode ',' as %2C)`,
        { badElement: node.name },
      );
    }
    return { node, value: keys[0]! };
  }
  if (keys !== undefined) {
    throw new RestconfUriError(
      'PATH_KEY_MISMATCH',
      `${where()}: '${node.name}' is a ${node.kind}; only list and leaf-list entries take '=' values`,
      { badElement: node.name },
    );
  }
  return { node };
}
