export { type ApplyOptions, type ApplyResult, applyPlan } from './apply.js';
export {
  type EditConfigDocument,
  type EditConfigOptions,
  type EditConfigPlan,
  NETCONF_BASE_NS,
  toEditConfig,
  YANG_XML_NS,
} from './edit-config.js';
export { DEFAULT_PATCH_LIMITS, type PatchLimits, YANG_PATCH_MODULE, YANG_PATCH_NS } from './envelope.js';
export {
  type PatchErrorPath,
  YangPatchError,
  type YangPatchErrorCode,
  type YangPatchErrorInit,
} from './errors.js';
export { type ParseYangPatchOptions, parseYangPatch, parseYangPatchSteps } from './parse-patch.js';
export { fromResolved, pathSchemaOf, toResolved } from './paths.js';
export {
  type DatastoreEdit,
  type DatastoreOperation,
  type InsertPosition,
  isCombinable,
  type PatchPlan,
  planPatch,
} from './plan.js';
export {
  type EditStatus,
  encodeStatusJson,
  encodeStatusXml,
  type PatchStatusError,
  patchStatus,
  statusError,
  statusOfResult,
  statusToJson,
  type YangPatchStatus,
} from './status.js';
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
