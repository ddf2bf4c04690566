export {
  type ApiPath,
  type ApiPathLimits,
  type ApiPathSegment,
  DEFAULT_API_PATH_LIMITS,
  formatApiPath,
  formatApiPathSegment,
  type ParseApiPathOptions,
  parseApiPath,
} from './api-path.js';
export { type DateAndTime, parseDateAndTime } from './date-time.js';
export {
  RestconfUriError,
  type RestconfUriErrorCode,
  type RestconfUriErrorDetails,
  type RestconfUriErrorTag,
} from './errors.js';
export { type FieldsLimits, type FieldsNode, formatFields, parseFields } from './fields.js';
export { formatQuery } from './format-query.js';
export { type FormatTargetOptions, formatTarget } from './format-target.js';
export {
  type InstanceIdentifierOptions,
  type NamespaceDeclaration,
  toInstanceIdentifier,
  toJsonInstanceIdentifier,
  type XmlInstanceIdentifier,
  xpathLiteral,
} from './instance-identifier.js';
export { findLongKey, type LongKey } from './key-length.js';
export { type OperationName, resolveOperation } from './operation.js';
export { percentDecode, percentEncode } from './percent-encoding.js';
export { type ParseQueryOptions, parseQuery, type QueryLimits, type QueryParameters } from './query.js';
export {
  allowedQueryParameters,
  isQueryParameterAllowed,
  QUERY_PARAMETER_RULES,
  type QueryParameterName,
  type QueryParameterRule,
} from './query-rules.js';
export { type ParsedRequest, type ParseRequestOptions, parseRequest } from './request.js';
export {
  type ClassifyTargetOptions,
  classifyTarget,
  type QualifiedName,
  type RequestTarget,
  type TargetKind,
} from './request-target.js';
export {
  type KeyValue,
  type ResolveApiPathOptions,
  type ResolvedApiPath,
  type ResolvedStep,
  resolveApiPath,
} from './resolve.js';
export { type ResolvedFieldsNode, resolveFields } from './resolve-fields.js';
export type { PathSchema, PathSchemaNode } from './schema.js';
export { toSubtreeFilter } from './subtree-filter.js';
