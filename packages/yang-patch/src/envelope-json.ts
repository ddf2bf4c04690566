import { type CodecError, parseJsonTextSteps, type Steps } from '@yangkit/yang-json-codec';
import {
  checkEditCount,
  DEFAULT_PATCH_LIMITS,
  EDIT_LEAVES,
  type EditFields,
  finishEdit,
  label,
  type PatchLimits,
  type RawEdit,
  type RawPatch,
  setEditLeaf,
  YANG_PATCH_MODULE,
} from './envelope.js';
import { YangPatchError } from './errors.js';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7951 section 4: below the top, a member of the same module may also be written qualified. */
function localName(member: string): string {
  return member.startsWith(`${YANG_PATCH_MODULE}:`) ? member.slice(YANG_PATCH_MODULE.length + 1) : member;
}

/**
 * Reads an `application/yang-patch+json` body (RFC 8072 section 2.2, RFC 7951 encoding):
 *
 * ```json
 * { "ietf-yang-patch:yang-patch": { "patch-id": "p", "comment": "c",
 *   "edit": [ { "edit-id": "e1", "operation": "create", "target": "/x=1", "value": { "mod:x": [ ... ] } } ] } }
 * ```
 */
export function* readJsonEnvelope(body: string, limits: PatchLimits = {}): Steps<RawPatch> {
  const maxSize = limits.maxSize ?? DEFAULT_PATCH_LIMITS.maxSize;
  const maxDepth = limits.maxDepth ?? DEFAULT_PATCH_LIMITS.maxDepth;
  const maxEdits = limits.maxEdits ?? DEFAULT_PATCH_LIMITS.maxEdits;
  if (body.length > maxSize) {
    throw new YangPatchError(
      'LIMIT_EXCEEDED',
      `the body of ${body.length} characters exceeds the limit of ${maxSize}`,
    );
  }
  let doc: unknown;
  try {
    doc = yield* parseJsonTextSteps(body, maxDepth);
  } catch (cause) {
    if ((cause as CodecError).code === 'LIMIT_EXCEEDED') {
      throw new YangPatchError('LIMIT_EXCEEDED', `the body nests deeper than ${maxDepth} levels`, { cause });
    }
    throw new YangPatchError('BODY_MALFORMED', `the body is ${(cause as Error).message}`, { cause });
  }
  const keys = isObject(doc) ? Object.keys(doc) : [];
  if (!isObject(doc) || keys.length !== 1 || keys[0] !== `${YANG_PATCH_MODULE}:yang-patch`) {
    throw new YangPatchError(
      'BODY_MALFORMED',
      'a YANG Patch JSON body is one object with the single member "ietf-yang-patch:yang-patch"',
    );
  }
  const patch = doc[`${YANG_PATCH_MODULE}:yang-patch`];
  if (!isObject(patch)) {
    throw new YangPatchError('BODY_MALFORMED', '"ietf-yang-patch:yang-patch" must be a JSON object');
  }
  let patchId: string | undefined;
  let comment: string | undefined;
  let editList: unknown[] = [];
  for (const [member, v] of Object.entries(patch)) {
    const name = localName(member);
    if (name === 'patch-id' || name === 'comment') {
      if (typeof v !== 'string') {
        throw new YangPatchError('ELEMENT_INVALID', `"${name}" must be a JSON string`, {
          errorInfo: { 'bad-element': name },
        });
      }
      if (name === 'patch-id') patchId = v;
      else comment = v;
    } else if (name === 'edit') {
      if (!Array.isArray(v)) {
        throw new YangPatchError('ELEMENT_INVALID', '"edit" must be a JSON array (RFC 7951 section 5.4)', {
          errorInfo: { 'bad-element': 'edit' },
        });
      }
      editList = v;
    } else {
      throw new YangPatchError('ELEMENT_UNKNOWN', `unknown member "${member}" in yang-patch`, {
        errorInfo: { 'bad-element': member },
      });
    }
  }
  checkEditCount(editList.length, maxEdits);
  const edits: RawEdit[] = editList.map((entry, i) => readEdit(entry, i + 1));
  return { patchId, comment, edits };
}

function readEdit(entry: unknown, position: number): RawEdit {
  if (!isObject(entry)) {
    throw new YangPatchError('ELEMENT_INVALID', `edit #${position} must be a JSON object`, {
      errorInfo: { 'bad-element': 'edit' },
    });
  }
  const fields: EditFields = {};
  // Read edit-id first so that every later problem names it (JSON members are unordered).
  const members = Object.entries(entry);
  members.sort(([a], [b]) => Number(localName(b) === 'edit-id') - Number(localName(a) === 'edit-id'));
  for (const [member, v] of members) {
    const name = localName(member);
    if (EDIT_LEAVES.has(name)) {
      if (typeof v !== 'string') {
        throw new YangPatchError(
          'ELEMENT_INVALID',
          `edit ${label(fields, position)}: "${name}" must be a JSON string`,
          {
            editId: fields.editId,
            errorInfo: { 'bad-element': name },
          },
        );
      }
      setEditLeaf(fields, name, v, position);
    } else if (name === 'value') {
      if (!isObject(v)) {
        throw new YangPatchError(
          'ELEMENT_INVALID',
          `edit ${label(fields, position)}: "value" must be a JSON object holding the target node`,
          { editId: fields.editId, errorInfo: { 'bad-element': 'value' } },
        );
      }
      fields.value = { encoding: 'json', members: v };
    } else {
      throw new YangPatchError(
        'ELEMENT_UNKNOWN',
        `edit ${label(fields, position)}: unknown member "${member}"`,
        {
          editId: fields.editId,
          errorInfo: { 'bad-element': member },
        },
      );
    }
  }
  return finishEdit(fields, position);
}
