import { readFileSync } from 'node:fs';
import { YangSchemaError } from './errors';
import { loadSchema, moduleNameOfFile } from './loader';
import { printPaths } from './output/paths';
import { printTreeDiagram } from './output/tree-diagram';
import { parseModule } from './parser/parse-module';

/** Where the CLI writes; the real process streams by default, a buffer in tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `Usage: yang-schema <command> [options] FILE|MODULE...

Commands:
  check   compile the modules; print located errors and exit 1 on failure
  tree    print an RFC 8340 tree diagram of each named module
  paths   print "path<TAB>kind<TAB>type<TAB>config<TAB>flags" for every schema node of the named modules

Options:
  -p, --path DIR        search DIR recursively for imported modules (repeatable)
  -F, --features M:F,G  enable only features F and G of module M ("M:" enables none; repeatable);
                        otherwise the named modules have all their features enabled and the
                        modules they import none (as yanglint)
  -h, --help            print this help
`;

interface Parsed {
  command: string;
  paths: string[];
  features: Record<string, string[]>;
  modules: string[];
}

function parseArgs(argv: readonly string[]): Parsed | string {
  const out: Parsed = { command: '', paths: [], features: {}, modules: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const value = (): string | undefined => {
      const eq = a.indexOf('=');
      if (a.startsWith('--') && eq > 0) return a.slice(eq + 1);
      i++;
      return argv[i];
    };
    if (a === '-h' || a === '--help') return USAGE;
    if (a === '-p' || a === '--path' || a.startsWith('--path=')) {
      const v = value();
      if (v === undefined) return 'missing directory after --path';
      out.paths.push(v);
    } else if (a === '-F' || a === '--features' || a.startsWith('--features=')) {
      const v = value();
      const colon = v?.indexOf(':') ?? -1;
      if (v === undefined || colon <= 0) return 'expected --features MODULE:FEATURE[,FEATURE...]';
      const list = (out.features[v.slice(0, colon)] ??= []);
      for (const f of v.slice(colon + 1).split(',')) if (f.length > 0) list.push(f);
    } else if (a.startsWith('-')) {
      return `unknown option "${a}"`;
    } else if (!out.command) out.command = a;
    else out.modules.push(a);
  }
  if (!['check', 'tree', 'paths'].includes(out.command))
    return out.command ? `unknown command "${out.command}"` : USAGE;
  if (out.modules.length === 0) return 'name at least one FILE or MODULE';
  return out;
}

/** The module name a CLI argument names: a module name, `name@revision`, or a `.yang` file. */
function moduleName(arg: string): string {
  if (arg.endsWith('.yang')) {
    try {
      const p = parseModule(readFileSync(arg, 'utf8'), { file: arg });
      return p.belongsTo ?? p.name;
    } catch {
      return moduleNameOfFile(arg) ?? arg;
    }
  }
  const at = arg.indexOf('@');
  return at < 0 ? arg : arg.slice(0, at);
}

/**
 * Runs `yang-schema` with the arguments after the program name and returns the exit code:
 * 0 on success, 1 when the modules do not compile, 2 on a usage error.
 */
export async function main(
  argv: readonly string[],
  io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) },
): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    if (args === USAGE) {
      io.stdout(USAGE);
      return argv.includes('-h') || argv.includes('--help') ? 0 : 2;
    }
    io.stderr(`yang-schema: ${args}\n`);
    return 2;
  }
  const names = args.modules.map(moduleName);
  let tree: Awaited<ReturnType<typeof loadSchema>>;
  try {
    // As yanglint: every feature of the named modules, none of the modules they import.
    const features: Record<string, readonly string[] | '*'> = { ...args.features };
    for (const name of names) features[name] ??= '*';
    tree = await loadSchema({ paths: args.paths, modules: args.modules, features, unlistedFeatures: 'none' });
  } catch (e) {
    if (YangSchemaError.isInstance(e)) {
      io.stderr(`error: ${e.message}\n`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'EACCES') {
      io.stderr(`error: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
  if (args.command === 'paths') io.stdout(printPaths(tree, names));
  else if (args.command === 'tree') io.stdout(names.map((n) => printTreeDiagram(tree, n)).join('\n'));
  return 0;
}
