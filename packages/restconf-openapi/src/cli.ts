import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSchema } from '@yangkit/yang-schema';
import { OpenApiError } from './errors.js';
import { type OpenApiOptions, toOpenApi } from './openapi.js';

/** Where the CLI writes; injectable so tests run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly writeFile: (file: string, text: string) => void;
}

const USAGE = `usage: yang-openapi --path DIR... --module NAME... [--document MODULE]... [--root PATH]
                    [--server-url URL] [--title TEXT] [--simple-json-names]
                    [--security basic|mutual-tls]... [--output FILE] [--indent N]

Writes the OpenAPI 3.1 document of the RESTCONF API (RFC 8040) of the YANG modules: data
resources, operations, actions and notifications, with JSON and XML bodies. --document limits it
to what the named modules define (default: every module given, and the datastore resource).
ietf-restconf and ietf-yang-patch are added to the modules. Exit status 1 when a module is
missing or does not compile, 2 on a usage error.`;

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  writeFile: (f, t) => writeFileSync(f, t),
};

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: false,
    options: {
      path: { type: 'string', short: 'p', multiple: true },
      module: { type: 'string', short: 'm', multiple: true },
      document: { type: 'string', short: 'd', multiple: true },
      root: { type: 'string' },
      'server-url': { type: 'string' },
      title: { type: 'string' },
      'simple-json-names': { type: 'boolean' },
      security: { type: 'string', multiple: true },
      output: { type: 'string', short: 'o' },
      indent: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** Runs `yang-openapi` with `argv` (without node and script); resolves to the exit status. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (e) {
    io.stderr(`yang-openapi: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const modules = values.module ?? [];
  const security = values.security ?? [];
  const indent = values.indent === undefined ? 2 : Number(values.indent);
  const usage = (problem: string): number => {
    io.stderr(`yang-openapi: ${problem}\n${USAGE}\n`);
    return 2;
  };
  if (modules.length === 0) return usage('give at least one --module');
  if (security.some((s) => s !== 'basic' && s !== 'mutual-tls'))
    return usage('--security takes basic or mutual-tls');
  if (!Number.isInteger(indent) || indent < 0 || indent > 8) return usage('--indent takes 0 to 8');
  const options: OpenApiOptions = {
    modules:
      values.document ??
      modules.map((m) =>
        m
          .replace(/@.*$/, '')
          .replace(/^.*\//, '')
          .replace(/\.yang$/, ''),
      ),
    ...(values.root === undefined ? {} : { root: values.root }),
    ...(values['server-url'] === undefined ? {} : { serverUrl: values['server-url'] }),
    ...(values.title === undefined ? {} : { title: values.title }),
    simpleNames: values['simple-json-names'] ?? false,
    security: { basic: security.includes('basic'), mutualTls: security.includes('mutual-tls') },
  };
  let text: string;
  try {
    const tree = await loadSchema({
      paths: values.path ?? [],
      modules: [...modules, 'ietf-restconf', 'ietf-yang-patch'],
    });
    text = `${JSON.stringify(toOpenApi(tree, options), null, indent)}\n`;
  } catch (e) {
    if (OpenApiError.isInstance(e) && e.code === 'UNKNOWN_MODULE') return usage(e.message);
    io.stderr(`yang-openapi: ${(e as Error).message}\n`);
    return 1;
  }
  if (values.output === undefined) io.stdout(text);
  else io.writeFile(values.output, text);
  return 0;
}
