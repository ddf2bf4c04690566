export type { XmlAttribute, XmlChild, XmlElement } from './element.js';
export {
  XmlError,
  type XmlErrorCode,
  type XmlErrorPosition,
  type XmlLimitName,
} from './errors.js';
export { escapeXmlAttribute, escapeXmlText, replaceNonXmlChars } from './escape.js';
export { DEFAULT_XML_LIMITS, type XmlLimits } from './limits.js';
export { NamespaceScope, XML_NAMESPACE } from './namespace-scope.js';
export { childElement, childElements, textOf } from './navigate.js';
export {
  readXml,
  readXmlDocument,
  readXmlDocumentSteps,
  readXmlSteps,
  streamXml,
  streamXmlSteps,
  type XmlSink,
  type XmlSinkDecision,
  type XmlTextPieces,
} from './reader.js';
export { innerXml, namespaceDeclarations, outerXml } from './serialize.js';
export {
  finishInSlices,
  finishSteps,
  ITEMS_PER_STEP,
  joinSteps,
  oneStep,
  SLICE_MS,
  type SliceOptions,
  Slices,
  type Steps,
  StepsQueue,
} from './steps.js';
export { streamXmlElements, streamXmlElementsSteps } from './stream-elements.js';
