import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type CompileOptions, compileSchema } from './compiler/compile';
import { YangModuleNotFoundError } from './errors';
import { parseModule } from './parser/parse-module';
import type { ParsedModule } from './parser/statement';
import type { SchemaTree } from './schema-tree';
import { standardModulesDir } from './standard-modules';

/**
 * Fetches a module's text by name (and revision when an import names one), for example with NETCONF
 * `<get-schema>` (RFC 6022). Resolves to undefined when the source does not have it.
 */
export type ModuleFetcher = (
  name: string,
  revision: string | undefined,
) => Promise<string | undefined> | string | undefined;

/** Options of {@link loadModules} and {@link loadSchema}. */
export interface LoadOptions extends CompileOptions {
  /** Directories searched recursively for `name@revision.yang` and `name.yang` (like yanglint `-p`). */
  readonly paths?: readonly string[];
  /** Modules to load and implement: names, `name@revision`, or paths of `.yang` files. */
  readonly modules: readonly string[];
  /** Module texts given directly; they are found before any directory. */
  readonly texts?: readonly string[];
  /** Asked for modules that no text and no directory provides. */
  readonly fetch?: ModuleFetcher;
  /**
   * Directories of modules shipped with an application, searched after `paths` and before the standard
   * modules. A module in `paths` wins over both, whatever its revision: the folder a user names holds
   * the revisions the device really has.
   */
  readonly fallbackPaths?: readonly string[];
  /** Search the modules shipped with this package after `paths` and `fallbackPaths` (default true). */
  readonly standardModules?: boolean;
}

interface Candidate {
  readonly file: string;
  readonly revision: string | undefined;
}

const FILE_NAME = /^([A-Za-z_][\w.-]*?)(?:@(\d{4}-\d{2}-\d{2}))?\.yang$/;
const MAX_DIR_DEPTH = 32;

function indexDirectory(
  dir: string,
  into: Map<string, Candidate[]>,
  seen = new Set<string>(),
  depth = 0,
): void {
  if (depth > MAX_DIR_DEPTH) return;
  let entries: string[];
  try {
    // Symbolic links may loop back to a folder already searched.
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const e of entries.sort()) {
    const full = join(dir, e);
    const m = FILE_NAME.exec(e);
    if (m) {
      const list = into.get(m[1] ?? '') ?? [];
      list.push({ file: full, revision: m[2] });
      into.set(m[1] ?? '', list);
      continue;
    }
    if (!e.startsWith('.')) {
      try {
        if (statSync(full).isDirectory()) indexDirectory(full, into, seen, depth + 1);
      } catch {
        // unreadable entries are skipped, like yanglint does
      }
    }
  }
}

/**
 * Finds and parses the named modules and everything they import and include, from texts, directories
 * and the fetch callback. Missing modules raise {@link YangModuleNotFoundError} naming the importer.
 */
export async function loadModules(
  options: LoadOptions,
): Promise<{ parsed: ParsedModule[]; implemented: string[] }> {
  // Searched in turn: a module found in one tier hides its other revisions in the later ones.
  const tiers = [options.paths ?? [], options.fallbackPaths ?? []];
  if (options.standardModules !== false) tiers.push([standardModulesDir]);
  const indexes = tiers.map((dirs) => {
    const index = new Map<string, Candidate[]>();
    for (const dir of dirs) indexDirectory(dir, index);
    return index;
  });
  const given = new Map<string, ParsedModule[]>();
  const remember = (p: ParsedModule) => {
    const list = given.get(p.name) ?? [];
    list.push(p);
    given.set(p.name, list);
  };
  for (const text of options.texts ?? []) remember(parseModule(text));
  const parsedFiles = new Map<string, ParsedModule>();
  const parseFile = (file: string): ParsedModule => {
    let p = parsedFiles.get(file);
    if (!p) {
      p = parseModule(readFileSync(file, 'utf8'), { file });
      parsedFiles.set(file, p);
    }
    return p;
  };

  const find = async (
    name: string,
    revision: string | undefined,
    importedBy: string | undefined,
  ): Promise<ParsedModule> => {
    const texts = given.get(name) ?? [];
    const fromText = revision ? texts.find((t) => t.revision === revision) : newest(texts);
    if (fromText) return fromText;
    for (const index of indexes) {
      const file = pickFile(index.get(name) ?? [], revision, parseFile);
      if (file !== undefined) return parseFile(file);
    }
    if (options.fetch) {
      const text = await options.fetch(name, revision);
      if (text !== undefined) {
        const p = parseModule(text, { file: revision ? `${name}@${revision}.yang` : `${name}.yang` });
        remember(p);
        return p;
      }
    }
    throw new YangModuleNotFoundError(name, { revision, importedBy });
  };

  const loaded = new Map<string, ParsedModule>();
  const implemented: string[] = [];
  const queue: ParsedModule[] = [];
  const add = (p: ParsedModule) => {
    const k = `${p.kind}:${p.name}@${p.revision ?? ''}`;
    if (loaded.has(k)) return;
    loaded.set(k, p);
    queue.push(p);
  };
  for (const spec of options.modules) {
    let p: ParsedModule;
    if (spec.endsWith('.yang')) p = parseFile(spec);
    else {
      const at = spec.indexOf('@');
      p = await find(at < 0 ? spec : spec.slice(0, at), at < 0 ? undefined : spec.slice(at + 1), undefined);
    }
    add(p);
    implemented.push(
      p.kind === 'submodule' ? (p.belongsTo ?? p.name) : p.revision ? `${p.name}@${p.revision}` : p.name,
    );
    if (p.kind === 'submodule' && p.belongsTo) add(await find(p.belongsTo, undefined, p.name));
  }
  for (let p = queue.shift(); p; p = queue.shift()) {
    for (const imp of p.imports) add(await find(imp.module, imp.revision, p.name));
    for (const inc of p.includes) add(await find(inc.submodule, inc.revision, p.name));
  }
  return { parsed: [...loaded.values()], implemented };
}

/** The file of the wanted revision among `candidates`, or of the newest one when no revision is wanted. */
function pickFile(
  candidates: readonly Candidate[],
  revision: string | undefined,
  parseFile: (file: string) => ParsedModule,
): string | undefined {
  if (revision) {
    const exact = candidates.find((c) => c.revision === revision);
    if (exact) return exact.file;
    return candidates.find((c) => c.revision === undefined && parseFile(c.file).revision === revision)?.file;
  }
  let bestFile: string | undefined;
  let bestRev = '';
  for (const c of candidates) {
    const rev = c.revision ?? parseFile(c.file).revision ?? '';
    if (bestFile === undefined || rev > bestRev) {
      bestFile = c.file;
      bestRev = rev;
    }
  }
  return bestFile;
}

function newest(list: readonly ParsedModule[]): ParsedModule | undefined {
  let best: ParsedModule | undefined;
  for (const p of list) if (!best || (p.revision ?? '') > (best.revision ?? '')) best = p;
  return best;
}

/** Loads the named modules with their imports (see {@link loadModules}) and compiles them. */
export async function loadSchema(options: LoadOptions): Promise<SchemaTree> {
  const { parsed, implemented } = await loadModules(options);
  const compile: { -readonly [K in keyof CompileOptions]: CompileOptions[K] } = { implemented };
  if (options.features) compile.features = options.features;
  if (options.unlistedFeatures) compile.unlistedFeatures = options.unlistedFeatures;
  return compileSchema(parsed, compile);
}

/** The module name a `.yang` file name stands for (`a@2020-01-01.yang` -> `a`). */
export function moduleNameOfFile(file: string): string | undefined {
  return FILE_NAME.exec(basename(file))?.[1];
}
