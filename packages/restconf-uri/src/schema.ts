/**
 * The schema facts path resolution needs. Any compiled schema (for example the one of
 * `@yangkit/yang-schema`) can be adapted to it in a few lines.
 */
export interface PathSchemaNode {
  readonly kind:
    | 'container'
    | 'list'
    | 'leaf'
    | 'leaf-list'
    | 'anydata'
    | 'anyxml'
    | 'rpc'
    | 'action'
    | 'notification';
  /** Name of the module that defines the node. */
  readonly module: string;
  /** The module's XML namespace. */
  readonly namespace: string;
  readonly name: string;
  /** List key leaf names, in order. */
  readonly keys?: readonly string[];
}

/** Lookup of schema nodes by module and name. */
export interface PathSchema {
  /** A top-level data node (or rpc/notification) of a module. */
  topLevel(module: string, name: string): PathSchemaNode | undefined;
  /**
   * A data child of `parent` (choice and case are transparent), an action or a notification;
   * `module` is the child's module (the parent's when the segment is unqualified).
   */
  child(parent: PathSchemaNode, module: string, name: string): PathSchemaNode | undefined;
  /** Modules that define a top-level node or rpc of that name (diagnostics, optional prefix rule). */
  modulesDefining?(name: string): readonly string[];
}
