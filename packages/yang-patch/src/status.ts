import { escapeXmlText, namespaceDeclarations, replaceNonXmlChars } from '@yangkit/xml';
import type { ApplyResult } from './apply.js';
import { YANG_PATCH_MODULE, YANG_PATCH_NS } from './envelope.js';
import type { PatchErrorPath, YangPatchError } from './errors.js';

/** One `errors/error` entry (RFC 8040 section 7.1, grouping `rc:errors` used by RFC 8072). */
export interface PatchStatusError {
  readonly errorType: string;
  readonly errorTag: string;
  readonly errorAppTag?: string;
  readonly errorPath?: PatchErrorPath;
  readonly errorMessage?: string;
  readonly errorInfo?: Readonly<Record<string, string>>;
}

/** The status of one edit: `ok`, or its errors. */
export interface EditStatus {
  readonly editId: string;
  readonly ok?: true;
  readonly errors?: readonly PatchStatusError[];
}

/**
 * `ietf-yang-patch:yang-patch-status` (RFC 8072 section 2.3): `ok` when every edit succeeded; otherwise
 * the failing edit in `editStatus`, or `globalErrors` for a failure not tied to an edit.
 */
export interface YangPatchStatus {
  readonly patchId: string;
  readonly ok?: true;
  readonly globalErrors?: readonly PatchStatusError[];
  readonly editStatus?: readonly EditStatus[];
}

/** The error entry of a {@link YangPatchError}. */
export function statusError(error: YangPatchError): PatchStatusError {
  return {
    errorType: error.errorType,
    errorTag: error.errorTag,
    ...(error.errorAppTag === undefined ? {} : { errorAppTag: error.errorAppTag }),
    ...(error.errorPath === undefined ? {} : { errorPath: error.errorPath }),
    errorMessage: error.message,
    ...(error.errorInfo === undefined ? {} : { errorInfo: error.errorInfo }),
  };
}

/**
 * The yang-patch-status for a patch: `ok` without an error; with one, the error under its edit-id
 * (RFC 8072 section 2.7: the server stops at the first failing edit and reports it), or under
 * `global-errors` when it names no edit. `patchId` falls back to the error's, then to ''.
 */
export function patchStatus(patchId: string | undefined, error?: YangPatchError): YangPatchStatus {
  const id = patchId ?? error?.patchId ?? '';
  if (error === undefined) return { patchId: id, ok: true };
  if (error.editId === undefined) return { patchId: id, globalErrors: [statusError(error)] };
  return { patchId: id, editStatus: [{ editId: error.editId, errors: [statusError(error)] }] };
}

/** The yang-patch-status for the outcome of `applyPlan`. */
export function statusOfResult(patchId: string, result: ApplyResult): YangPatchStatus {
  return patchStatus(patchId, result.ok ? undefined : result.error);
}

function infoJson(info: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(info)) out[k] = replaceNonXmlChars(v);
  return out;
}

function errorsJson(errors: readonly PatchStatusError[]): Record<string, unknown> {
  return {
    error: errors.map((e) => ({
      'error-type': e.errorType,
      'error-tag': e.errorTag,
      ...(e.errorAppTag === undefined ? {} : { 'error-app-tag': replaceNonXmlChars(e.errorAppTag) }),
      ...(e.errorPath === undefined ? {} : { 'error-path': e.errorPath.json }),
      ...(e.errorMessage === undefined ? {} : { 'error-message': replaceNonXmlChars(e.errorMessage) }),
      ...(e.errorInfo === undefined ? {} : { 'error-info': infoJson(e.errorInfo) }),
    })),
  };
}

/**
 * The RFC 7951 JSON value of a status (RFC 8072 section 2.3; `ok` is the empty type, `[null]`):
 *
 * ```json
 * { "ietf-yang-patch:yang-patch-status": { "patch-id": "p", "edit-status": { "edit": [
 *   { "edit-id": "e1", "errors": { "error": [ { "error-type": "application", "error-tag": "data-exists" } ] } } ] } } }
 * ```
 */
export function statusToJson(status: YangPatchStatus): Record<string, unknown> {
  const body: Record<string, unknown> = { 'patch-id': replaceNonXmlChars(status.patchId) };
  if (status.ok) body.ok = [null];
  if (status.globalErrors !== undefined) body.errors = errorsJson(status.globalErrors);
  if (status.editStatus !== undefined) {
    body['edit-status'] = {
      edit: status.editStatus.map((e) => ({
        'edit-id': replaceNonXmlChars(e.editId),
        ...(e.ok ? { ok: [null] } : {}),
        ...(e.errors === undefined ? {} : { errors: errorsJson(e.errors) }),
      })),
    };
  }
  return { [`${YANG_PATCH_MODULE}:yang-patch-status`]: body };
}

/** The status as `application/yang-data+json` text (`indent` spaces per level, default 2). */
export function encodeStatusJson(status: YangPatchStatus, indent = 2): string {
  return JSON.stringify(statusToJson(status), null, indent);
}

/** A leaf of the status; its text may quote the request, so what XML 1.0 cannot carry is replaced. */
function leaf(name: string, text: string, attrs = ''): string {
  return `<${name}${attrs}>${escapeXmlText(replaceNonXmlChars(text))}</${name}>`;
}

function errorsXml(errors: readonly PatchStatusError[]): string {
  let out = '<errors>';
  for (const e of errors) {
    out += '<error>';
    out += leaf('error-type', e.errorType) + leaf('error-tag', e.errorTag);
    if (e.errorAppTag !== undefined) out += leaf('error-app-tag', e.errorAppTag);
    if (e.errorPath !== undefined) {
      // RFC 7950 section 9.13: the prefixes of an XML instance-identifier are declared in scope.
      out += leaf(
        'error-path',
        e.errorPath.xml,
        namespaceDeclarations(Object.entries(e.errorPath.namespaces)),
      );
    }
    if (e.errorMessage !== undefined) out += leaf('error-message', e.errorMessage);
    if (e.errorInfo !== undefined) {
      out += '<error-info>';
      for (const [k, v] of Object.entries(e.errorInfo)) out += leaf(k, v);
      out += '</error-info>';
    }
    out += '</error>';
  }
  return `${out}</errors>`;
}

/**
 * The status as `application/yang-data+xml` text, every element in the ietf-yang-patch namespace (the
 * `rc:errors` grouping is used there):
 *
 * ```xml
 * <yang-patch-status xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch">
 *   <patch-id>p</patch-id><ok/>
 * </yang-patch-status>
 * ```
 */
export function encodeStatusXml(status: YangPatchStatus): string {
  let out = `<yang-patch-status xmlns="${YANG_PATCH_NS}">${leaf('patch-id', status.patchId)}`;
  if (status.ok) out += '<ok/>';
  if (status.globalErrors !== undefined) out += errorsXml(status.globalErrors);
  if (status.editStatus !== undefined) {
    out += '<edit-status>';
    for (const e of status.editStatus) {
      out += `<edit>${leaf('edit-id', e.editId)}`;
      if (e.ok) out += '<ok/>';
      if (e.errors !== undefined) out += errorsXml(e.errors);
      out += '</edit>';
    }
    out += '</edit-status>';
  }
  return `${out}</yang-patch-status>`;
}
