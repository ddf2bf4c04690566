import { readFileSync } from 'node:fs';
import { type CliArgs, choiceOption, intOption, parseCliArgs, USAGE } from './cli-args.js';
import { RestconfClient } from './client.js';
import { RestconfClientError, RestconfResponseError } from './errors.js';
import { createNodeFetch } from './node.js';
import { toApiPath } from './target.js';
import type { EditOptions, Encoding, FetchLike, RestconfResponse } from './types.js';

/** Where `yangkit` writes, and what it may be given instead of the process's defaults. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The fetch to use instead of one built from the TLS options. */
  readonly fetch?: FetchLike;
  /** Stops a `subscribe` (the bin wires SIGINT to it). */
  readonly signal?: AbortSignal;
}

/** Exit codes of `yangkit`. */
export const EXIT = { ok: 0, serverError: 1, usage: 2, failure: 3 } as const;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RestconfClientError(
      'INVALID_ARGUMENT',
      `cannot read ${what} ${file}: ${(error as Error).message}`,
    );
  }
}

/** A VALUE argument: inline JSON, `@file.json` or `@file.xml` (which switches to XML). */
function readValue(arg: string, fallback: Encoding): { value: string; encoding: Encoding } {
  if (!arg.startsWith('@')) return { value: arg, encoding: fallback };
  const file = arg.slice(1);
  const encoding = /\.xml$/i.test(file) ? 'xml' : /\.json$/i.test(file) ? 'json' : fallback;
  return { value: readText(file, 'value file'), encoding };
}

/** Prints a response body: JSON indented by two spaces, other bodies as they came. */
function print(io: CliIo, response: RestconfResponse): void {
  if (response.data === undefined) return;
  io.stdout(
    typeof response.data === 'string'
      ? ensureNewline(response.data)
      : `${JSON.stringify(response.data, null, 2)}\n`,
  );
}

const ensureNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** An error as people read it: the status line, then each `ietf-restconf:errors` entry. */
export function formatCliError(error: unknown): string {
  if (RestconfResponseError.isInstance(error)) {
    const lines = [`error: HTTP ${error.status}`];
    for (const entry of error.errors) {
      lines.push(
        `  ${entry.errorType} ${entry.errorTag}${entry.errorAppTag ? ` (${entry.errorAppTag})` : ''}`,
      );
      if (entry.editId !== undefined) lines.push(`    edit: ${entry.editId}`);
      if (entry.errorPath) lines.push(`    path: ${entry.errorPath}`);
      if (entry.errorMessage) lines.push(`    message: ${entry.errorMessage}`);
      if (entry.errorInfo) lines.push(`    info: ${JSON.stringify(entry.errorInfo)}`);
    }
    if (error.errors.length === 0 && error.body.trim() !== '') lines.push(`  ${error.body.trim()}`);
    return `${lines.join('\n')}\n`;
  }
  if (RestconfClientError.isInstance(error)) return `error: ${error.message}\n`;
  return `error: ${(error as Error)?.message ?? String(error)}\n`;
}

function exitCode(error: unknown): number {
  if (!RestconfClientError.isInstance(error)) return EXIT.failure;
  if (error.code === 'HTTP_ERROR') return EXIT.serverError;
  if (error.code === 'INVALID_ARGUMENT') return EXIT.usage;
  return EXIT.failure;
}

function buildClient(args: CliArgs, io: CliIo): { client: RestconfClient; close(): Promise<void> } {
  const o = args.options;
  const str = (name: string) => (typeof o[name] === 'string' ? (o[name] as string) : undefined);
  const secret = (name: string) => {
    const file = str(name);
    return file === undefined ? undefined : readText(file, 'password file').replace(/\r?\n$/, '');
  };
  const password = secret('password-file');
  const passphrase = secret('key-password-file');
  let fetchFn = io.fetch;
  let close = async () => {};
  if (fetchFn === undefined && (o.cert !== undefined || o.key !== undefined || o.ca !== undefined)) {
    const nodeFetch = createNodeFetch({
      ...(str('ca') === undefined ? {} : { caFile: str('ca') as string }),
      ...(str('cert') === undefined ? {} : { certFile: str('cert') as string }),
      ...(str('key') === undefined ? {} : { keyFile: str('key') as string }),
      ...(passphrase === undefined ? {} : { passphrase }),
    });
    fetchFn = nodeFetch;
    close = () => nodeFetch.close();
  }
  const user = str('user');
  const client = new RestconfClient({
    baseUrl: str('server') as string,
    encoding: choiceOption(o, 'encoding', ['json', 'xml'] as const) ?? 'json',
    ...(str('root') === undefined ? {} : { root: str('root') as string }),
    ...(user === undefined ? {} : { auth: { user, password: password ?? '' } }),
    ...(fetchFn === undefined ? {} : { fetch: fetchFn }),
  });
  return { client, close };
}

function editOptions(args: CliArgs): EditOptions {
  const o = args.options;
  const timeout = intOption(o, 'confirm-timeout');
  return {
    ...(o.confirmed ? { confirmed: true } : {}),
    ...(timeout === undefined ? {} : { confirmTimeout: timeout }),
    ...(typeof o.persist === 'string' ? { persist: o.persist } : {}),
    ...(typeof o['persist-id'] === 'string' ? { persistId: o['persist-id'] } : {}),
  };
}

async function execute(args: CliArgs, client: RestconfClient, io: CliIo): Promise<void> {
  const o = args.options;
  const [first = '', second] = args.positionals;
  const edit = editOptions(args);
  const value = () => readValue(second ?? '', client.encoding);
  const withDefaults = () =>
    choiceOption(o, 'with-defaults', ['report-all', 'report-all-tagged', 'trim', 'explicit'] as const);
  switch (args.command) {
    case 'sget': {
      const depth = o.depth === 'unbounded' ? 'unbounded' : intOption(o, 'depth');
      const content = choiceOption(o, 'content', ['config', 'nonconfig', 'all'] as const) ?? 'all';
      const defaults = withDefaults();
      return print(
        io,
        await client.get(first, {
          content,
          ...(depth === undefined ? {} : { depth }),
          ...(typeof o.fields === 'string' ? { fields: o.fields } : {}),
          ...(defaults === undefined ? {} : { withDefaults: defaults }),
        }),
      );
    }
    case 'get-config': {
      const source = choiceOption(o, 'source', ['running', 'candidate', 'startup'] as const);
      const defaults = withDefaults();
      return print(
        io,
        await client.getConfig(first, {
          ...(source === undefined ? {} : { source }),
          ...(defaults === undefined ? {} : { withDefaults: defaults }),
        }),
      );
    }
    case 'create': {
      // PATH names the new resource, as for every other edit; RFC 8040 POSTs it to its parent.
      const path = toApiPath(first);
      if (path.segments.length === 0) {
        throw new RestconfClientError('INVALID_ARGUMENT', 'create takes the path of the new resource');
      }
      const { value: body, encoding } = value();
      return print(
        io,
        await client.create({ segments: path.segments.slice(0, -1) }, body, { ...edit, encoding }),
      );
    }
    case 'replace':
    case 'merge': {
      const { value: body, encoding } = value();
      return print(io, await client[args.command](first, body, { ...edit, encoding }));
    }
    case 'insert': {
      const { value: body, encoding } = value();
      const operation = choiceOption(o, 'operation', ['create', 'replace', 'merge'] as const);
      const insert = choiceOption(o, 'insert', ['first', 'last', 'before', 'after'] as const);
      if (operation === undefined || insert === undefined) {
        throw new RestconfClientError('INVALID_ARGUMENT', 'insert needs --operation and --insert');
      }
      const point = typeof o.point === 'string' ? { point: o.point } : {};
      return print(io, await client.insert(first, body, { ...edit, encoding, operation, insert, ...point }));
    }
    case 'delete':
      return print(io, await client.delete(first, edit));
    case 'remove':
      // Absent or removed, the outcome is the same: nothing to print (a 404 body is no error here).
      await client.remove(first, edit);
      return;
    case 'rpc': {
      if (second === undefined) return print(io, await client.invoke(first));
      const { value: input, encoding } = value();
      return print(io, await client.invoke(first, input, { encoding }));
    }
    case 'patch': {
      const { value: patch, encoding } = readValue(`@${first}`, client.encoding);
      return print(
        io,
        await client.yangPatch(typeof o.path === 'string' ? o.path : '', patch, { ...edit, encoding }),
      );
    }
    case 'commit':
    case 'cancel-commit': {
      const id = typeof o['persist-id'] === 'string' ? o['persist-id'] : undefined;
      const response = args.command === 'commit' ? await client.commit(id) : await client.cancelCommit(id);
      return print(io, response);
    }
    case 'schema': {
      const [module = '', revision] = first.split('@');
      io.stdout(ensureNewline(await client.schema(module, revision)));
      return;
    }
    case 'subscribe':
      return subscribe(args, client, io);
    case undefined:
      return;
  }
}

async function subscribe(args: CliArgs, client: RestconfClient, io: CliIo): Promise<void> {
  const o = args.options;
  const count = intOption(o, 'count');
  let seen = 0;
  if (count === 0) return;
  const events = client.subscribe(args.positionals[0] ?? '', {
    ...(typeof o.filter === 'string' ? { filter: o.filter } : {}),
    ...(typeof o['start-time'] === 'string' ? { startTime: o['start-time'] } : {}),
    ...(typeof o['stop-time'] === 'string' ? { stopTime: o['stop-time'] } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  for await (const notification of events) {
    const text =
      typeof notification.data === 'string'
        ? notification.raw
        : JSON.stringify(
            {
              'ietf-restconf:notification': {
                eventTime: notification.eventTime,
                [notification.event]: notification.data,
              },
            },
            null,
            2,
          );
    io.stdout(ensureNewline(text));
    if (count !== undefined && ++seen >= count) return;
  }
}

/**
 * Runs `yangkit` with `argv` (without `node` and the script) and resolves with its exit code:
 * 0 success, 1 the server answered 4xx/5xx, 2 usage error, 3 connection or protocol failure.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    io.stderr(`${formatCliError(error)}${USAGE}\n`);
    return EXIT.usage;
  }
  if (args.command === undefined) {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }
  let setup: ReturnType<typeof buildClient> | undefined;
  try {
    setup = buildClient(args, io);
    await execute(args, setup.client, io);
    return EXIT.ok;
  } catch (error) {
    if (io.signal?.aborted && RestconfClientError.isInstance(error) && error.code === 'ABORTED')
      return EXIT.ok;
    io.stderr(formatCliError(error));
    return exitCode(error);
  } finally {
    await setup?.close();
  }
}
