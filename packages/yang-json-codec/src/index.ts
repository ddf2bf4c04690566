// The XML reader of @yangkit/xml, exported here as before it had its own package.
export {
  NamespaceScope,
  readXml,
  streamXml,
  type XmlAttribute,
  type XmlElement,
  type XmlLimits,
  type XmlSink,
  type XmlTextPieces,
} from '@yangkit/xml';
export {
  ChangeLog,
  createsOf,
  type Detach,
  invertChange,
  type LeafValue,
  type Placement,
  type TreeChange,
} from './change-log';
export {
  findChild,
  findChildren,
  findEntry,
  findEntryByKey,
  findPath,
  hasKeyIndex,
  indexTreeSteps,
  insertChild,
  moveChild,
  positionOf,
  positionsSteps,
  removeChild,
  replaceChild,
} from './child-index';
export { CompactChildMap } from './child-map';
export { applyContent, holdsNoState } from './content';
export { decodeJson, decodeJsonSteps } from './decode-json';
export {
  decodeXml,
  decodeXmlSteps,
  NETCONF_NS,
  NOTIFICATION_NS,
  RESTCONF_NS,
  type XmlInput,
} from './decode-xml';
export type { DecodeOptions } from './decoder';
export { applyDepth } from './depth';
export type { EncodeJsonOptions } from './encode-json';
export { encodeJson, encodeJsonChunks } from './encode-json';
export type { EncodeOptions, SystemSort } from './encode-options';
export type { EncodeXmlOptions } from './encode-xml';
export { encodeXml, encodeXmlChunks } from './encode-xml';
export type { CodecErrorCode, CodecErrorInit, ErrorPath, ErrorTag } from './errors';
export { CodecError } from './errors';
export { applyFields } from './fields';
export type {
  Annotation,
  AnyElement,
  ChildHolder,
  ChildMap,
  DataNode,
  DocumentKind,
  InstanceTree,
} from './instance';
export {
  child,
  childrenNamed,
  cloneNode,
  cloneNodeSteps,
  cloneTree,
  cloneTreeSteps,
  createNode,
  emptyTree,
  leafValue,
  walk,
} from './instance';
export { instanceIdFromXml, instanceIdSteps } from './instance-identifier';
export type { JsonSchema, JsonSchemaOptions } from './json-schema';
export { membersJsonSchema, nodeJsonSchema, toJsonSchema } from './json-schema';
export { type JsonTextPieces, parseJsonText, parseJsonTextSteps } from './json-text';
export type { JsonCheck } from './json-validator';
export { compileJsonValidator } from './json-validator';
export { DEFAULT_ORIGIN, type OriginRule, ownOrigin } from './origin';
export { overlayTree } from './overlay';
export {
  entryKey,
  isWholeStep,
  type PathKey,
  type PathStep,
  pathOf,
  samePath,
  sameStep,
  stepKey,
  stepOf,
} from './path-step';
export { pathOfSteps, xmlPathNamespaces } from './paths';
export {
  type FilterElement,
  type SelectXPathOptions,
  selectSubtree,
  selectSubtreeSteps,
  selectXPath,
  selectXPathSteps,
} from './select';
export { selectPath } from './select-path';
export { SharedSteps } from './shared-steps';
export { type DetachableRead, type SharedRead, snapshotAfterSteps, snapshotChunks } from './snapshot-chunks';
export {
  finishInSlices,
  finishSteps,
  ITEMS_PER_STEP,
  joinSteps,
  nextText,
  oneStep,
  SLICE_MS,
  type SliceOptions,
  Slices,
  type Steps,
  StepsQueue,
} from './steps';
export {
  type ApplyEditOptions,
  applyEdit,
  applyEditSteps,
  diff,
  diffSteps,
  type InsertPosition,
  replaceTree,
  replaceTreeSteps,
  type TreeEdit,
  type TreeEditOperation,
} from './tree-edit';
export type { ValidateOptions } from './validate';
export { validate, validateChanges, validateChangesSteps, validateSteps } from './validate';
export type { ValueError, ValueOk } from './values';
export { valueFromCanonical, valueFromXml } from './values';
export {
  applyView,
  entriesNamedApart,
  judgedByKeySteps,
  type KeyedJudgement,
  type NodeFilter,
  type TreeView,
  type ViewedNode,
  viewedTopLevel,
  viewedTopLevelSteps,
} from './view';
export type { WithDefaultsMode } from './with-defaults';
export { applyWithDefaults } from './with-defaults';
export { type TreeNode, treeNavigator } from './xpath-navigator';
export { isXPathType, mapXPathPrefixes } from './xpath-value';
