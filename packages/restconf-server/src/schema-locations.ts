import { createNode, type DataNode, type InstanceTree, leafValue } from '@yangkit/yang-json-codec';
import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import type { Settings } from './context.js';

const YLIB = 'ietf-yang-library';

/** A module or submodule text the handler serves at `{+restconf}/yang/<name>[@<revision>]`. */
export interface ServedSchema {
  readonly revision?: string;
  readonly source: string;
}

/**
 * The module or submodule `name` of the handler's schema, at `revision` when given (RFC 8040
 * section 3.7); undefined when the schema has no such text.
 */
export function servedSchema(schema: SchemaTree, name: string, revision?: string): ServedSchema | undefined {
  const matches = (m: ServedSchema & { name: string }) =>
    m.name === name && (revision === undefined || m.revision === revision);
  const preferred = schema.moduleByName(name);
  if (preferred !== undefined && matches(preferred)) return preferred;
  for (const m of schema.modules) {
    if (matches(m)) return m;
    for (const s of m.submodules) if (matches(s)) return s;
  }
  return undefined;
}

/** `{serverUrl}{root}/yang/<name>[@<revision>]`, the URL a YANG library entry names for its text. */
function schemaUrl(s: Settings, name: string, revision: string | undefined): string {
  const at = revision === undefined || revision === '' ? '' : `@${revision}`;
  return `${s.serverUrl.replace(/\/+$/, '')}${s.root}/yang/${name}${at}`;
}

/** Sets the URL leaf (`schema`) or leaf-list (`location`) of one library entry, when its text is served. */
function locate(s: Settings, entry: DataNode, leafName: 'schema' | 'location'): void {
  const name = leafValue(entry, 'name', YLIB);
  const revision = leafValue(entry, 'revision', YLIB);
  const leaf = entry.schema.dataChild(YLIB, leafName);
  if (name === undefined || leaf === undefined || entry.children === undefined) return;
  if (servedSchema(s.schema, name, revision === '' ? undefined : revision) === undefined) return;
  const node = createNode(leaf, entry);
  node.value = schemaUrl(s, name, revision);
  // The handler serves the texts itself: its URL is the one a RESTCONF client can reach.
  entry.children.set(leaf, [node]);
}

/** The entries of list `name` below `holder`. */
function entries(holder: DataNode, name: string): readonly DataNode[] {
  const schema: SchemaNode | undefined = holder.schema.dataChild(YLIB, name);
  return schema === undefined ? [] : (holder.children?.get(schema) ?? []);
}

/** One library module entry and its submodules. */
function locateWithSubmodules(s: Settings, entry: DataNode, leafName: 'schema' | 'location'): void {
  locate(s, entry, leafName);
  for (const sub of entries(entry, 'submodule')) locate(s, sub, leafName);
}

/**
 * Schema discovery (RFC 8040 section 3.7): every module and submodule of the YANG library whose
 * text the handler serves at `{+restconf}/yang` names that URL, in `modules-state/module/schema`
 * (RFC 7895) and in `yang-library/module-set/module/location` and `import-only-module/location`
 * (RFC 8525), submodules included. The backend does not know the handler's URL, so its library
 * is completed here.
 */
export function addSchemaLocations(s: Settings, tree: InstanceTree): void {
  for (const [schema, nodes] of tree.children) {
    if (schema.module !== YLIB) continue;
    for (const top of nodes) {
      if (schema.name === 'modules-state') {
        for (const m of entries(top, 'module')) locateWithSubmodules(s, m, 'schema');
      } else if (schema.name === 'yang-library') {
        for (const set of entries(top, 'module-set')) {
          for (const m of entries(set, 'module')) locateWithSubmodules(s, m, 'location');
          for (const m of entries(set, 'import-only-module')) locateWithSubmodules(s, m, 'location');
        }
      }
    }
  }
}
