import { findLongKey } from '@yangkit/restconf-uri';
import { type DataNode, finishSteps, type Steps, samePath, walk } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { type DecodeLimits, decodeValue } from './decode-value.js';
import { DEFAULT_PATCH_LIMITS, type PatchLimits, type RawEdit, type RawPatch } from './envelope.js';
import { readJsonEnvelope } from './envelope-json.js';
import { readXmlEnvelope } from './envelope-xml.js';
import { YangPatchError } from './errors.js';
import { describePath, resolvePath, toResolved } from './paths.js';
import { checkTemplate, refusedByTemplate } from './template.js';
import type { EditOperation, EditWhere, PatchEdit, PathStep, YangPatch } from './types.js';

/** Options of {@link parseYangPatch}. */
export interface ParseYangPatchOptions extends PatchLimits {
  /** `json` for application/yang-patch+json, `xml` for application/yang-patch+xml. */
  readonly encoding: 'json' | 'xml';
  /**
   * The request target the edit targets are relative to (RFC 8072 section 2.1): an api-path such as
   * `/example-jukebox:jukebox/playlist=Foo-One`, or resolved steps. Default: the datastore.
   */
  readonly target?: string | readonly PathStep[];
  /**
   * Longest list key in UTF-8 bytes, in edit values and in the keys of `target` and `point`
   * (default: no limit). A longer one is refused with `invalid-value` naming the limit.
   */
  readonly maxKeyLength?: number;
  /** Longest leaf or leaf-list value in UTF-8 bytes in edit values (default: no limit). */
  readonly maxStringLength?: number;
  /**
   * Most data nodes in all edit values together (default: no limit). The edit whose value goes
   * past it is refused with `VALUE_INVALID` (too-big) as that node is decoded.
   */
  readonly maxNodes?: number;
}

const NEEDS_VALUE = new Set<EditOperation>(['create', 'merge', 'replace', 'insert']);

/**
 * Parses and validates a YANG Patch body (RFC 8072 section 2.2): the envelope, every edit's operation
 * and where (checked against the types of the `ietf-yang-patch:yang-patch` template, which the schema
 * must hold), target (resolved against the schema relative to the request target), where/point for
 * insert and move, and the value, decoded by the codec against the schema node the target names.
 *
 * @throws {YangPatchError} the first problem; `editId` names the edit it belongs to, `patchId` the patch
 */
export function parseYangPatch(schema: SchemaTree, body: string, options: ParseYangPatchOptions): YangPatch {
  return finishSteps(parseYangPatchSteps(schema, body, options));
}

/**
 * {@link parseYangPatch} in steps (see the codec's `Steps`): the same parse, yielding while the body is
 * read and its edit values decoded, so that a server can give the event loop back meanwhile.
 */
export function* parseYangPatchSteps(
  schema: SchemaTree,
  body: string,
  options: ParseYangPatchOptions,
): Steps<YangPatch> {
  const limits: Required<PatchLimits> = {
    maxSize: options.maxSize ?? DEFAULT_PATCH_LIMITS.maxSize,
    maxEdits: options.maxEdits ?? DEFAULT_PATCH_LIMITS.maxEdits,
    maxDepth: options.maxDepth ?? DEFAULT_PATCH_LIMITS.maxDepth,
  };
  if (typeof body !== 'string') throw new YangPatchError('BODY_MALFORMED', 'the body must be a string');
  checkTemplate(schema);
  const raw: RawPatch =
    options.encoding === 'xml' ? yield* readXmlEnvelope(body, limits) : yield* readJsonEnvelope(body, limits);
  const patchId = raw.patchId;
  try {
    if (patchId === undefined) {
      throw new YangPatchError('PATCH_ID_MISSING', 'the yang-patch has no "patch-id" (it is mandatory)', {
        errorInfo: { 'bad-element': 'patch-id' },
      });
    }
    const requestTarget =
      typeof options.target === 'string'
        ? resolvePath(schema, options.target, [], 'TARGET_INVALID', 'the request target')
        : [...(options.target ?? [])];
    const editLimits: DecodeLimits = {
      maxDepth: limits.maxDepth,
      ...(options.maxKeyLength === undefined ? {} : { maxKeyLength: options.maxKeyLength }),
      ...(options.maxStringLength === undefined ? {} : { maxStringLength: options.maxStringLength }),
    };
    const seen = new Set<string>();
    let nodesLeft = options.maxNodes ?? Number.POSITIVE_INFINITY;
    const edits: PatchEdit[] = [];
    for (const edit of raw.edits) {
      if (edit.editId === undefined) {
        throw new YangPatchError(
          'EDIT_ID_MISSING',
          `edit #${edit.position} has no "edit-id" (it is the list key)`,
          {
            errorInfo: { 'bad-element': 'edit-id' },
          },
        );
      }
      if (seen.has(edit.editId)) {
        throw new YangPatchError(
          'EDIT_ID_DUPLICATE',
          `edit-id "${edit.editId}" is used by more than one edit`,
          {
            editId: edit.editId,
            errorInfo: { 'bad-element': 'edit-id' },
          },
        );
      }
      seen.add(edit.editId);
      // A literal that starts with a spread of an object got V8 a new map for each edit; `editLimits`
      // holds no `maxNodes`, so the spread after it leaves it as set.
      const checked = yield* checkEdit(schema, edit, edit.editId, requestTarget, {
        maxNodes: nodesLeft,
        ...editLimits,
      });
      nodesLeft -= nodeCount(checked.value);
      edits.push(checked);
    }
    return {
      patchId,
      ...(raw.comment === undefined ? {} : { comment: raw.comment }),
      requestTarget,
      edits,
    };
  } catch (e) {
    if (YangPatchError.isInstance(e)) throw e.withContext({ patchId });
    throw e;
  }
}

function* checkEdit(
  schema: SchemaTree,
  raw: RawEdit,
  editId: string,
  requestTarget: readonly PathStep[],
  limits: DecodeLimits,
): Steps<PatchEdit> {
  const fail = (code: ConstructorParameters<typeof YangPatchError>[0], message: string, bad?: string) =>
    new YangPatchError(code, `edit "${editId}": ${message}`, {
      editId,
      ...(bad === undefined ? {} : { errorInfo: { 'bad-element': bad } }),
    });
  if (raw.operation === undefined)
    throw fail('OPERATION_MISSING', 'no "operation" (it is mandatory)', 'operation');
  const badOperation = refusedByTemplate(schema, 'operation', raw.operation);
  if (badOperation !== undefined)
    throw fail('OPERATION_UNKNOWN', `unknown operation: ${badOperation}`, 'operation');
  const operation = raw.operation as EditOperation;
  if (raw.target === undefined) throw fail('TARGET_MISSING', 'no "target" (it is mandatory)', 'target');
  let target: PathStep[];
  try {
    target =
      raw.target === '/'
        ? [...requestTarget]
        : resolvePath(schema, raw.target, requestTarget, 'TARGET_INVALID', 'target');
  } catch (e) {
    throw YangPatchError.isInstance(e) ? e.withContext({ editId }, `edit "${editId}": `) : e;
  }
  checkKeyLengths(target, 'target', limits.maxKeyLength, fail);
  if (target.length === 0 && operation !== 'merge') {
    // RFC 8072 section 2.2: the target MUST be a data resource, not the datastore; a merge of "/" is
    // accepted as the plain-PATCH equivalent (RFC 8040 section 4.6.1), as nothing is replaced or removed.
    throw fail('TARGET_INVALID', `the datastore itself cannot be the target of "${operation}"`, 'target');
  }
  const last = target[target.length - 1];
  let where: EditWhere | undefined;
  let point: PathStep[] | undefined;
  const reorders = operation === 'insert' || operation === 'move';
  if (raw.where !== undefined) {
    if (!reorders)
      throw fail('POINT_INVALID', `"where" applies only to insert and move, not ${operation}`, 'where');
    const badWhere = refusedByTemplate(schema, 'where', raw.where);
    if (badWhere !== undefined) throw fail('POINT_INVALID', `unknown where: ${badWhere}`, 'where');
    where = raw.where as EditWhere;
  }
  if (reorders) {
    where ??= 'last';
    const s = last?.schema;
    if (s === undefined || (s.kind !== 'list' && s.kind !== 'leaf-list') || s.orderedBy !== 'user') {
      throw fail(
        'NOT_USER_ORDERED',
        `${operation} needs a target in an "ordered-by user" list or leaf-list; ${describePath(target)} is not one`,
        'target',
      );
    }
    if (last!.keys === undefined && last!.value === undefined) {
      throw fail(
        'TARGET_INVALID',
        `${operation} needs the target to name one entry (${describePath(target)})`,
        'target',
      );
    }
  }
  if (raw.point !== undefined) {
    if (!reorders || (where !== 'before' && where !== 'after')) {
      throw fail(
        'POINT_INVALID',
        '"point" applies only to insert and move with where "before" or "after"',
        'point',
      );
    }
    try {
      point = resolvePath(schema, raw.point, requestTarget, 'POINT_INVALID', 'point');
    } catch (e) {
      throw YangPatchError.isInstance(e) ? e.withContext({ editId }, `edit "${editId}": `) : e;
    }
    checkKeyLengths(point, 'point', limits.maxKeyLength, fail);
    const p = point[point.length - 1];
    const sameParent = samePath(point.slice(0, -1), target.slice(0, -1));
    if (
      p === undefined ||
      p.schema !== last!.schema ||
      !sameParent ||
      (p.keys === undefined && p.value === undefined)
    ) {
      throw fail(
        'POINT_INVALID',
        `point "${raw.point}" is not an entry of the same ${last!.schema.kind} as the target`,
        'point',
      );
    }
  } else if (where === 'before' || where === 'after') {
    throw fail('POINT_INVALID', `where "${where}" needs a "point"`, 'point');
  }
  let value: DataNode[] | undefined;
  if (NEEDS_VALUE.has(operation)) {
    if (raw.value === undefined) throw fail('VALUE_MISSING', `${operation} needs a "value"`, 'value');
    value = yield* decodeValue(schema, raw.value, target, editId, limits);
  } else if (raw.value !== undefined) {
    throw fail('VALUE_NOT_ALLOWED', `${operation} takes no "value"`, 'value');
  }
  return {
    editId,
    operation,
    targetText: raw.target,
    target,
    ...(where === undefined ? {} : { where }),
    ...(point === undefined ? {} : { point }),
    ...(value === undefined ? {} : { value }),
  };
}

/** The data nodes of an edit's value, its top nodes included. */
function nodeCount(value: readonly DataNode[] | undefined): number {
  let count = 0;
  for (const top of value ?? []) {
    count++;
    for (const _ of walk(top)) count++;
  }
  return count;
}

/** Refuses a `target` or `point` with a list key longer than `maxBytes` (it would come back in URIs). */
function checkKeyLengths(
  steps: readonly PathStep[],
  what: 'target' | 'point',
  maxBytes: number | undefined,
  fail: (code: 'TARGET_INVALID' | 'POINT_INVALID', message: string, bad?: string) => YangPatchError,
): void {
  const long = maxBytes === undefined ? undefined : findLongKey(toResolved(steps), maxBytes);
  if (long === undefined) return;
  throw fail(
    what === 'target' ? 'TARGET_INVALID' : 'POINT_INVALID',
    `the list key "${long.key.name}" of ${long.step.node.name} in the ${what} is longer than the limit of ${maxBytes} bytes`,
    what,
  );
}
