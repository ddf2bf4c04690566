export type { CompileOptions } from './compiler/compile';
export { compileSchema } from './compiler/compile';
export type { FeatureSelection } from './compiler/context';
export type { SourceLocation, YangSchemaErrorCode } from './errors';
export { YangCompileError, YangModuleNotFoundError, YangSchemaError, YangSyntaxError } from './errors';
export { mergeFeatures } from './feature-selection';
export type { LoadOptions, ModuleFetcher } from './loader';
export { loadModules, loadSchema } from './loader';
export { pathLine, printPaths } from './output/paths';
export { printTreeDiagram, type TreeDiagramEntry, treeDiagramEntry } from './output/tree-diagram';
export type { ParseOptions } from './parser/parse-module';
export { PARSE_LIMITS, parseModule } from './parser/parse-module';
export type { ParsedImport, ParsedInclude, ParsedModule, YangStatement } from './parser/statement';
export { SchemaTree } from './schema-tree';
export type {
  ExtensionInstance,
  MustConstraint,
  SchemaAnnotation,
  SchemaIdentity,
  SchemaModule,
  SchemaNode,
  SchemaNodeKind,
  SchemaSubmodule,
  Status,
  WhenCondition,
  XPathExpression,
  YangDataStructure,
} from './schema-types';
export { standardModulesDir } from './standard-modules';
export * from './types/index';
export type { YangLibraryData, YangLibraryOptions } from './yang-library';
