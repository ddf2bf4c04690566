import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import {
  encodeStatusJson,
  encodeStatusXml,
  parseYangPatch,
  patchStatus,
  planPatch,
  toEditConfig,
  type YangPatchStatus,
} from '@yangkit/yang-patch';
import { notePatchId, noteRefusal } from './audit.js';
import type { RequestContext } from './context.js';
import type { Body } from './edit.js';
import { editConfig, runEdits } from './edit-session.js';
import { toRestconfErrors } from './error-body.js';
import { RestconfError } from './errors.js';
import { toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';

function statusBody(ctx: RequestContext, status: YangPatchStatus): string {
  return ctx.encoding === 'json'
    ? encodeStatusJson(status, Math.max(ctx.settings.messageIndent, 0))
    : encodeStatusXml(status);
}

/**
 * PATCH with a YANG Patch body (RFC 8072 section 2): the edits are validated first, then applied in
 * order as one unit: with `:candidate` one `<edit-config>` per edit and a single `<commit>`, the
 * candidate discarded when an edit fails. The answer is `yang-patch-status`: 200 with `ok`, or the
 * failing edit's errors with the status of its error-tag.
 */
export async function yangPatch(
  ctx: RequestContext,
  resolved: ResolvedApiPath | undefined,
  body: Body,
  check: () => void,
): Promise<void> {
  const patch = parseYangPatch(ctx.settings.schema, body.text, {
    encoding: body.encoding,
    ...(resolved === undefined ? {} : { target: toPathSteps(resolved) }),
  });
  notePatchId(ctx.out.req, patch.patchId);
  const plan = planPatch(patch);
  const candidate = ctx.settings.backend.legacy.capabilities.protocol.has('candidate');
  const edit = toEditConfig(ctx.settings.schema, plan, { mode: candidate ? 'per-edit' : 'auto' });
  if (!candidate && edit.documents.length > 1) {
    throw new RestconfError(
      'OPERATION_NOT_SUPPORTED',
      'this YANG Patch needs several edit-config steps, which are atomic only with a :candidate backend',
      { errorType: 'application', errorTag: 'operation-not-supported' },
    );
  }
  let failedEdit: string | undefined;
  try {
    await runEdits(
      ctx.settings,
      ctx.query,
      async (session, target) => {
        for (const doc of edit.documents) {
          failedEdit = doc.editIds[0];
          await editConfig(session, target, doc.config);
        }
        failedEdit = undefined;
      },
      check,
      ctx.user,
    );
  } catch (error) {
    if (RestconfError.isInstance(error) && error.code === 'PRECONDITION_FAILED') throw error;
    const errors = toRestconfErrors(error, ctx.settings.schema);
    const first = errors[0]!;
    noteRefusal(ctx.out.req, first);
    const entries = errors.map((e) => ({
      errorType: e.errorType,
      errorTag: e.errorTag,
      ...(e.errorAppTag === undefined ? {} : { errorAppTag: e.errorAppTag }),
      ...(e.errorPath === undefined
        ? {}
        : {
            errorPath: {
              json: e.errorPath.json,
              xml: e.errorPath.xml,
              namespaces: e.errorPath.namespaces ?? {},
            },
          }),
      errorMessage: e.message,
      ...(e.errorInfo === undefined ? {} : { errorInfo: e.errorInfo }),
    }));
    const status: YangPatchStatus =
      failedEdit === undefined
        ? { patchId: patch.patchId, globalErrors: entries }
        : { patchId: patch.patchId, editStatus: [{ editId: failedEdit, errors: entries }] };
    ctx.out.text(first.status, dataMediaType(ctx.encoding), statusBody(ctx, status));
    return;
  }
  ctx.out.text(200, dataMediaType(ctx.encoding), statusBody(ctx, patchStatus(patch.patchId)));
}
