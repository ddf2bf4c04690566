import type { SchemaModule } from './schema-types';

/** Options of `SchemaTree.yangLibrary()`. */
export interface YangLibraryOptions {
  /** Datastore identities (from ietf-datastores) the server offers; default running and operational. */
  readonly datastores?: readonly string[];
  /** URL where a module's text can be fetched (the `location` / `schema` leaves), if any. */
  readonly schemaLocation?: (module: SchemaModule) => string | undefined;
}

type Json = Record<string, unknown>;

/** The RFC 7951 JSON of the two ietf-yang-library containers. */
export interface YangLibraryData {
  /** RFC 8525 `/ietf-yang-library:yang-library`. */
  readonly 'ietf-yang-library:yang-library': Json;
  /** RFC 7895 `/ietf-yang-library:modules-state` (deprecated in RFC 8525, still served). */
  readonly 'ietf-yang-library:modules-state': Json;
}

/** FNV-1a 32-bit hash, enough for a content-id that changes when the module set changes. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** Builds the yang-library data (RFC 8525 section 3, RFC 7895 section 2) for a compiled module set. */
export function buildYangLibrary(
  modules: readonly SchemaModule[],
  options: YangLibraryOptions,
): YangLibraryData {
  const implemented = modules.filter((m) => m.implemented);
  const importOnly = modules.filter((m) => !m.implemented);
  const revOf = (name: string): string | undefined => modules.find((m) => m.name === name)?.revision;
  const sub = (m: SchemaModule) =>
    m.submodules.map((s) =>
      s.revision === undefined ? { name: s.name } : { name: s.name, revision: s.revision },
    );
  const withLocation = (m: SchemaModule, entry: Json): Json => {
    const url = options.schemaLocation?.(m);
    return url === undefined ? entry : { ...entry, location: [url] };
  };
  const entry = (m: SchemaModule, full: boolean): Json => {
    const e: Json = { name: m.name };
    if (m.revision !== undefined) e.revision = m.revision;
    e.namespace = m.namespace;
    if (m.submodules.length > 0) e.submodule = sub(m);
    if (full && m.enabledFeatures.length > 0) e.feature = [...m.enabledFeatures];
    if (full && m.deviatedBy.length > 0) e.deviation = [...m.deviatedBy];
    return withLocation(m, e);
  };
  const contentId = fnv1a(
    modules
      .map(
        (m) =>
          `${m.name}@${m.revision ?? ''}:${m.implemented}:${m.enabledFeatures.join(',')}:${m.deviatedBy.join(',')}`,
      )
      .join(';'),
  );
  const datastores = options.datastores ?? ['ietf-datastores:running', 'ietf-datastores:operational'];
  const moduleSet: Json = { name: 'complete', module: implemented.map((m) => entry(m, true)) };
  if (importOnly.length > 0) moduleSet['import-only-module'] = importOnly.map((m) => entry(m, false));
  const library: Json = {
    'module-set': [moduleSet],
    schema: [{ name: 'complete', 'module-set': ['complete'] }],
    datastore: datastores.map((name) => ({ name, schema: 'complete' })),
    'content-id': contentId,
  };
  const state: Json = {
    'module-set-id': contentId,
    module: modules.map((m) => {
      const e: Json = { name: m.name, revision: m.revision ?? '' };
      const url = options.schemaLocation?.(m);
      if (url !== undefined) e.schema = url;
      e.namespace = m.namespace;
      if (m.enabledFeatures.length > 0) e.feature = [...m.enabledFeatures];
      if (m.deviatedBy.length > 0)
        e.deviation = m.deviatedBy.map((d) => ({ name: d, revision: revOf(d) ?? '' }));
      e['conformance-type'] = m.implemented ? 'implement' : 'import';
      if (m.submodules.length > 0)
        e.submodule = m.submodules.map((s) => ({ name: s.name, revision: s.revision ?? '' }));
      return e;
    }),
  };
  return { 'ietf-yang-library:yang-library': library, 'ietf-yang-library:modules-state': state };
}
