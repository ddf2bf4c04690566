// The XML reader of @yangkit/xml, exported here as before it had its own package.
export {
  NamespaceScope,
  readXml,
  streamXml,
  type XmlAttribute,
  type XmlElement,
  type XmlLimits,
  type XmlSink,
} from '@yangkit/xml';
export { decodeJson } from './decode-json';
export { decodeXml, NETCONF_NS, NOTIFICATION_NS, RESTCONF_NS } from './decode-xml';
export type { DecodeOptions } from './decoder';
export { applyDepth } from './depth';
export type { EncodeJsonOptions } from './encode-json';
export { encodeJson, encodeJsonChunks } from './encode-json';
export type { EncodeOptions, SystemSort } from './encode-options';
export type { EncodeXmlOptions } from './encode-xml';
export { encodeXml, encodeXmlChunks } from './encode-xml';
export type { CodecErrorCode, CodecErrorInit, ErrorPath, ErrorTag } from './errors';
export { CodecError } from './errors';
export type { FieldSelection } from './fields';
export { applyFields, parseFields } from './fields';
export type {
  Annotation,
  AnyElement,
  ChildHolder,
  ChildMap,
  DataNode,
  DocumentKind,
  InstanceTree,
} from './instance';
export { child, childrenNamed, leafValue, walk } from './instance';
export type { JsonSchema, JsonSchemaOptions } from './json-schema';
export { membersJsonSchema, nodeJsonSchema, toJsonSchema } from './json-schema';
export type { JsonCheck } from './json-validator';
export { compileJsonValidator } from './json-validator';
export type { ValidateOptions } from './validate';
export { validate } from './validate';
export type { WithDefaultsMode } from './with-defaults';
export { applyWithDefaults } from './with-defaults';
