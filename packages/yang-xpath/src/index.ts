export type {
  Axis,
  BinaryExpr,
  BinaryOperator,
  Expr,
  FilterExpr,
  FunctionCallExpr,
  LiteralExpr,
  NegateExpr,
  NodeTest,
  NumberExpr,
  PathExpr,
  Step,
  VariableExpr,
} from './ast.js';
export type { ExtensionContext, XPathExtensionFunction } from './compile.js';
export { createEvaluationCache, EvaluationCache } from './context.js';
export {
  XmlInputError,
  XPathCompileError,
  XPathError,
  type XPathErrorCode,
  XPathEvaluationError,
  XPathSchemaError,
  XPathSyntaxError,
} from './errors.js';
export type {
  ElementName,
  LeafrefPath,
  QualifiedName,
  XPathNavigator,
  XPathNodeKind,
  YangNodeInfo,
} from './navigator.js';
export { type ParseOptions, parseXPath } from './parser.js';
export { printXPath } from './printer.js';
export { qualifyNames } from './qualify-names.js';
export { checkSchemaPaths, type SchemaCheckOptions, type SchemaNavigator } from './schema-check.js';
export { numberToString, stringToNumber, type XPathValue } from './values.js';
export { CLIENT_MAX_WORK, UNITS_PER_STEP } from './work.js';
export {
  appendChild,
  createXmlNavigator,
  type ParseXmlOptions,
  parseXmlForXPath,
  type XmlNavigatorOptions,
  type XmlNode,
  xmlDocument,
  xmlElement,
  xmlNavigator,
} from './xml-tree.js';
export { CompiledXPath, type CompileOptions, compileXPath, type EvaluateOptions } from './xpath.js';
