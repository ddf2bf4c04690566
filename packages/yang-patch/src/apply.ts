import {
  applyEdit,
  ChangeLog,
  CodecError,
  cloneTree,
  type InstanceTree,
  validate,
} from '@yangkit/yang-json-codec';
import { YangPatchError, type YangPatchErrorCode } from './errors.js';
import { namespacesOf } from './paths.js';
import type { PatchPlan } from './plan.js';

/** Options of {@link applyPlan}. */
export interface ApplyOptions {
  /**
   * Validate the result against the YANG constraints once every edit is applied (RFC 8072 section 3: "After
   * all edits have been successfully processed, the result is validated"); a failure is a global error.
   * Default true.
   */
  readonly validate?: boolean;
}

/** The outcome of {@link applyPlan}: the new datastore content, or the error that stopped the patch. */
export type ApplyResult =
  | { readonly ok: true; readonly tree: InstanceTree }
  | { readonly ok: false; readonly error: YangPatchError };

/** The patch error of a codec error (its tag, app tag, path and info kept). */
function patchError(
  code: YangPatchErrorCode,
  e: CodecError,
  tree: InstanceTree,
  message = e.message,
): YangPatchError {
  return new YangPatchError(code, message, {
    errorTag: e.errorTag,
    errorAppTag: e.errorAppTag,
    errorPath:
      e.errorPath === undefined
        ? undefined
        : { ...e.errorPath, namespaces: namespacesOf(tree.schema, e.errorPath.xml) },
    errorInfo: e.errorInfo,
    cause: e,
  });
}

const CODES: Partial<Record<CodecError['code'], YangPatchErrorCode>> = {
  DATA_EXISTS: 'DATA_EXISTS',
  DATA_MISSING: 'DATA_MISSING',
  MISSING_INSTANCE: 'POINT_MISSING',
};

/**
 * Applies a plan to a copy of an in-memory datastore with the codec's edit operations, edit by edit in
 * order, stopping at the first failing edit (RFC 8072 section 2.5: all edits or none). `tree` itself is
 * never modified: on success the result holds the new content for the caller to install, so the
 * datastore changes atomically. The rules are the codec's `applyEdit`: create and insert fail with
 * data-exists when the node exists; delete and move with data-missing when it does not; an insert or move
 * point must exist (bad-attribute, error-app-tag missing-instance).
 */
export function applyPlan(tree: InstanceTree, plan: PatchPlan, options: ApplyOptions = {}): ApplyResult {
  const log = new ChangeLog(cloneTree(tree));
  for (const edit of plan.edits) {
    try {
      applyEdit(log, edit);
    } catch (e) {
      if (!CodecError.isInstance(e)) throw e;
      const error = patchError(CODES[e.code] ?? 'VALUE_INVALID', e, tree);
      return { ok: false, error: error.withContext({ editId: edit.editId, patchId: plan.patchId }) };
    }
  }
  if (options.validate ?? true) {
    const first = validate(log.tree, { config: true })[0];
    if (first !== undefined) {
      const error = patchError(
        'VALUE_INVALID',
        first,
        tree,
        `the patched datastore is not valid: ${first.message}`,
      );
      return { ok: false, error: error.withContext({ patchId: plan.patchId }) };
    }
  }
  return { ok: true, tree: log.tree };
}
