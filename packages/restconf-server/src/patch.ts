import type { ResolvedApiPath } from '@yangkit/restconf-uri';
import { finishInSlices } from '@yangkit/yang-json-codec';
import {
  encodeStatusJson,
  encodeStatusXml,
  parseYangPatchSteps,
  patchStatus,
  planPatch,
  type YangPatchStatus,
} from '@yangkit/yang-patch';
import { notePatchId, noteRefusal } from './audit.js';
import { EditError } from './backend.js';
import type { RequestContext } from './context.js';
import { type Body, editRequest } from './edit.js';
import { toRestconfErrors } from './error-body.js';
import { RestconfError } from './errors.js';
import { toPathSteps } from './instances.js';
import { dataMediaType } from './media.js';
import { valueLimits } from './value-limits.js';

function statusBody(ctx: RequestContext, status: YangPatchStatus): string {
  return ctx.encoding === 'json'
    ? encodeStatusJson(status, Math.max(ctx.settings.messageIndent, 0))
    : encodeStatusXml(status);
}

/**
 * PATCH with a YANG Patch body (RFC 8072 section 2): the edits are validated first, then the
 * backend applies them in order as one unit. The answer is `yang-patch-status`: 200 with `ok`, or
 * the failing edit's errors with the status of its error-tag.
 */
export async function yangPatch(
  ctx: RequestContext,
  resolved: ResolvedApiPath | undefined,
  body: Body,
  check: () => void,
): Promise<void> {
  const patch = await finishInSlices(
    parseYangPatchSteps(ctx.settings.schema, body.text, {
      encoding: body.encoding,
      ...valueLimits(ctx.settings),
      ...(resolved === undefined ? {} : { target: toPathSteps(resolved) }),
    }),
  );
  notePatchId(ctx.out.req, patch.patchId);
  const plan = planPatch(patch);
  try {
    await ctx.settings.backend.edit(editRequest(ctx, { check }, plan.edits));
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
    const failedEdit = error instanceof EditError ? plan.edits[error.index]?.editId : undefined;
    const status: YangPatchStatus =
      failedEdit === undefined
        ? { patchId: patch.patchId, globalErrors: entries }
        : { patchId: patch.patchId, editStatus: [{ editId: failedEdit, errors: entries }] };
    ctx.out.text(first.status, dataMediaType(ctx.encoding), statusBody(ctx, status));
    return;
  }
  ctx.out.text(200, dataMediaType(ctx.encoding), statusBody(ctx, patchStatus(patch.patchId)));
}
