export { DEFAULT_PATCH_LIMITS, type PatchLimits, YANG_PATCH_MODULE, YANG_PATCH_NS } from './envelope.js';
export { type PatchErrorPath, YangPatchError, type YangPatchErrorCode, type YangPatchErrorInit } from './errors.js';
export { type ParseYangPatchOptions, parseYangPatch } from './parse-patch.js';
export {
  EDIT_OPERATIONS,
  EDIT_WHERES,
  type EditOperation,
  type EditWhere,
  type PatchEdit,
  type PathKey,
  type PathStep,
  type YangPatch,
} from './types.js';
