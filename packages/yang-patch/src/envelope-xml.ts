import { readXmlSteps, type XmlElement, XmlError } from '@yangkit/xml';
import type { Steps } from '@yangkit/yang-json-codec';
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
  YANG_PATCH_NS,
} from './envelope.js';
import { YangPatchError } from './errors.js';

function elementsOf(e: XmlElement): XmlElement[] {
  return e.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** Text content of a leaf element; child elements are an error. */
function leafText(e: XmlElement, where: string, editId: string | undefined): string {
  let text = '';
  for (const c of e.children) {
    if (typeof c !== 'string') {
      throw new YangPatchError(
        'ELEMENT_INVALID',
        `${where}: <${e.local}> holds text only, found <${c.local}>`,
        {
          editId,
          errorInfo: { 'bad-element': e.local },
        },
      );
    }
    text += c;
  }
  return text;
}

/** Whitespace between elements is insignificant in a container (RFC 7950 7.5.8); other text is not. */
function checkNoText(e: XmlElement, where: string, editId: string | undefined): void {
  for (const c of e.children) {
    if (typeof c === 'string' && c.trim() !== '') {
      throw new YangPatchError('ELEMENT_INVALID', `${where}: <${e.local}> holds elements, not text`, {
        editId,
        errorInfo: { 'bad-element': e.local },
      });
    }
  }
}

function unknown(e: XmlElement, where: string, editId: string | undefined): YangPatchError {
  const name = e.ns === YANG_PATCH_NS ? e.local : `{${e.ns}}${e.local}`;
  return new YangPatchError('ELEMENT_UNKNOWN', `${where}: unknown element <${name}>`, {
    editId,
    errorInfo: { 'bad-element': e.local },
  });
}

/**
 * Reads an `application/yang-patch+xml` body (RFC 8072 section 2.2, RFC 7950 XML encoding):
 *
 * ```xml
 * <yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch">
 *   <patch-id>p</patch-id>
 *   <edit><edit-id>e1</edit-id><operation>create</operation><target>/x=1</target>
 *     <value><x xmlns="urn:example">...</x></value></edit>
 * </yang-patch>
 * ```
 */
export function* readXmlEnvelope(body: string, limits: PatchLimits = {}): Steps<RawPatch> {
  const maxSize = limits.maxSize ?? DEFAULT_PATCH_LIMITS.maxSize;
  const maxDepth = limits.maxDepth ?? DEFAULT_PATCH_LIMITS.maxDepth;
  const maxEdits = limits.maxEdits ?? DEFAULT_PATCH_LIMITS.maxEdits;
  let roots: XmlElement[];
  try {
    roots = yield* readXmlSteps(body, { maxSize, maxDepth });
  } catch (cause) {
    if (XmlError.isInstance(cause)) {
      const code = cause.code === 'XML_LIMIT_EXCEEDED' ? 'LIMIT_EXCEEDED' : 'BODY_MALFORMED';
      throw new YangPatchError(code, `the body is not acceptable XML: ${cause.message}`, { cause });
    }
    throw new YangPatchError('BODY_MALFORMED', `the body is not acceptable XML: ${String(cause)}`, { cause });
  }
  const root = roots[0];
  if (roots.length !== 1 || root === undefined || root.local !== 'yang-patch' || root.ns !== YANG_PATCH_NS) {
    throw new YangPatchError(
      'BODY_MALFORMED',
      `a YANG Patch XML body is one <yang-patch> element in the namespace ${YANG_PATCH_NS}`,
    );
  }
  checkNoText(root, 'yang-patch', undefined);
  let patchId: string | undefined;
  let comment: string | undefined;
  const editElements: XmlElement[] = [];
  for (const e of elementsOf(root)) {
    if (e.ns !== YANG_PATCH_NS) throw unknown(e, 'yang-patch', undefined);
    if (e.local === 'patch-id' || e.local === 'comment') {
      if ((e.local === 'patch-id' ? patchId : comment) !== undefined) {
        throw new YangPatchError('ELEMENT_DUPLICATE', `yang-patch gives <${e.local}> twice`, {
          errorInfo: { 'bad-element': e.local },
        });
      }
      const text = leafText(e, 'yang-patch', undefined);
      if (e.local === 'patch-id') patchId = text;
      else comment = text;
    } else if (e.local === 'edit') {
      editElements.push(e);
      checkEditCount(editElements.length, maxEdits);
    } else {
      throw unknown(e, 'yang-patch', undefined);
    }
  }
  const edits: RawEdit[] = editElements.map((e, i) => readEdit(e, i + 1));
  return { patchId, comment, edits };
}

function readEdit(edit: XmlElement, position: number): RawEdit {
  const fields: EditFields = {};
  const children = elementsOf(edit);
  // Read edit-id first so that every later problem names it, wherever it appears in the entry.
  const idElement = children.find((c) => c.ns === YANG_PATCH_NS && c.local === 'edit-id');
  if (idElement !== undefined) fields.editId = leafText(idElement, `edit #${position}`, undefined);
  checkNoText(edit, `edit ${label(fields, position)}`, fields.editId);
  for (const e of children) {
    if (e === idElement) continue;
    const where = `edit ${label(fields, position)}`;
    if (e.ns !== YANG_PATCH_NS) throw unknown(e, where, fields.editId);
    if (EDIT_LEAVES.has(e.local)) {
      setEditLeaf(fields, e.local, leafText(e, where, fields.editId), position);
    } else if (e.local === 'value') {
      if (fields.value !== undefined) {
        throw new YangPatchError('ELEMENT_DUPLICATE', `${where} gives <value> twice`, {
          editId: fields.editId,
          errorInfo: { 'bad-element': 'value' },
        });
      }
      checkNoText(e, where, fields.editId);
      fields.value = { encoding: 'xml', elements: elementsOf(e) };
    } else {
      throw unknown(e, where, fields.editId);
    }
  }
  return finishEdit(fields, position);
}
