import { parseArgs } from 'node:util';
import { RestconfClientError } from './errors.js';

/** The commands of `yangkit`, with their positional arguments. */
export const COMMANDS = {
  sget: ['PATH'],
  'get-config': ['[PATH]'],
  create: ['PATH', 'VALUE'],
  replace: ['PATH', 'VALUE'],
  merge: ['PATH', 'VALUE'],
  insert: ['PATH', 'VALUE'],
  delete: ['PATH'],
  remove: ['PATH'],
  rpc: ['MODULE:NAME', '[INPUT]'],
  patch: ['FILE'],
  subscribe: ['STREAM'],
  schema: ['MODULE'],
  commit: [],
  'cancel-commit': [],
} as const;

/** A command name of `yangkit`. */
export type CommandName = keyof typeof COMMANDS;

/** The usage text printed by `yangkit --help` and after a usage error. */
export const USAGE = `usage: yangkit --server URL [--user U] [--password-file F] [--cert F --key F [--key-password-file F]] [--ca F]
               [--encoding json|xml] [--root PATH] COMMAND ...

commands:
  sget PATH                    GET (--content config|nonconfig|all, default all; --depth N, --fields F,
                               --with-defaults M)
  get-config [PATH]            POST ietf-netconf:get-config (--source running|candidate|startup,
                               --with-defaults M); PATH becomes a subtree filter and names no list keys
  create PATH VALUE            POST VALUE, the new resource at PATH, to its parent
  replace PATH VALUE           PUT VALUE at PATH
  merge PATH VALUE             PATCH VALUE into PATH
  insert PATH VALUE --operation create|replace|merge --insert first|last|before|after [--point P]
  delete PATH                  DELETE (fails when absent)
  remove PATH                  DELETE (succeeds silently when absent)
  rpc MODULE:NAME [INPUT]      invoke an operation
  patch FILE [--path PATH]     send a YANG Patch (.json or .xml)
  subscribe STREAM [--filter X] [--start-time T] [--stop-time T] [--count N]
  schema MODULE[@REVISION]     print a module's YANG source
  commit --persist-id ID       confirm a confirmed commit
  cancel-commit --persist-id ID  roll a confirmed commit back

PATH always names the resource the command reads or edits (create and insert too).
edits take --confirmed --confirm-timeout N --persist ID, and --persist-id ID to join a
pending confirmed commit (with --confirmed it extends it, without it confirms it).
VALUE and INPUT: inline JSON, @file.json or @file.xml; with --encoding xml an inline value is XML.
exit codes: 0 success, 1 the server answered with an error, 2 usage error, 3 connection or protocol failure.`;

const OPTIONS = {
  server: { type: 'string' },
  root: { type: 'string' },
  user: { type: 'string' },
  'password-file': { type: 'string' },
  cert: { type: 'string' },
  key: { type: 'string' },
  'key-password-file': { type: 'string' },
  ca: { type: 'string' },
  encoding: { type: 'string' },
  content: { type: 'string' },
  source: { type: 'string' },
  operation: { type: 'string' },
  insert: { type: 'string' },
  point: { type: 'string' },
  path: { type: 'string' },
  confirmed: { type: 'boolean' },
  'confirm-timeout': { type: 'string' },
  persist: { type: 'string' },
  'persist-id': { type: 'string' },
  filter: { type: 'string' },
  'start-time': { type: 'string' },
  'stop-time': { type: 'string' },
  count: { type: 'string' },
  depth: { type: 'string' },
  fields: { type: 'string' },
  'with-defaults': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parsed command line of `yangkit`. */
export interface CliArgs {
  readonly command: CommandName | undefined;
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
}

const usageError = (message: string) => new RestconfClientError('INVALID_ARGUMENT', message);

/** Parses `yangkit` arguments; unknown options and wrong argument counts are `INVALID_ARGUMENT`. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
  const [name, ...positionals] = parsed.positionals;
  const options = parsed.values as Record<string, string | boolean | undefined>;
  if (options.help) return { command: undefined, positionals: [], options };
  if (name === undefined) throw usageError('a command is required');
  if (!Object.hasOwn(COMMANDS, name)) throw usageError(`unknown command '${name}'`);
  const command = name as CommandName;
  const spec: readonly string[] = COMMANDS[command];
  const required = spec.filter((p) => !p.startsWith('[')).length;
  if (positionals.length < required || positionals.length > spec.length) {
    throw usageError(`${command} takes ${spec.join(' ') || 'no arguments'}`);
  }
  if (typeof options.server !== 'string') throw usageError('--server URL is required');
  return { command, positionals, options };
}

/** A whole-number option, or undefined when absent. */
export function intOption(options: CliArgs['options'], name: string): number | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw usageError(`--${name} takes a whole number`);
  return Number(value);
}

/** A string option restricted to some values, or undefined when absent. */
export function choiceOption<T extends string>(
  options: CliArgs['options'],
  name: string,
  values: readonly T[],
): T | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw usageError(`--${name} takes one of ${values.join(', ')}`);
  }
  return value as T;
}
