import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { decodeJson } from './decode-json';
import { decodeXml } from './decode-xml';
import type { DecodeOptions } from './decoder';
import { encodeJson } from './encode-json';
import { encodeXml } from './encode-xml';
import { CodecError } from './errors';
import type { DocumentKind } from './instance';
import { validate } from './validate';
import { applyWithDefaults, type WithDefaultsMode } from './with-defaults';

/** Where the CLI reads and writes; injectable so tests run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (file: string) => string;
}

const USAGE = `usage: yang-convert --path DIR... --module NAME... --from xml|json --to json|xml
                    [--kind data|config|resource|rpc|reply|notification|yang-data]
                    [--operation MODULE:NAME | /PATH/TO/ACTION] [--yang-data MODULE:NAME]
                    [--parent /SCHEMA/PATH] [--simple-json-names] [--with-defaults MODE] FILE|-

Converts one document between NETCONF XML and RFC 7951 JSON through the compiled schema, validating it
on the way. JSON is printed with 2-space indentation, XML with one element per line. Exit status 1 and
the error on stderr when the input is invalid, 2 on a usage error.`;

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readFile: (f) => (f === '-' ? readFileSync(0, 'utf8') : readFileSync(f, 'utf8')),
};

function documentKind(kind: string, operation: string | undefined): DocumentKind | undefined {
  const action = operation?.startsWith('/') ?? false;
  switch (kind) {
    case 'rpc':
      return action ? 'action-input' : 'rpc-input';
    case 'reply':
      return action ? 'action-output' : 'rpc-output';
    case 'data':
    case 'config':
    case 'resource':
    case 'notification':
    case 'yang-data':
    case 'rpc-input':
    case 'rpc-output':
    case 'action-input':
    case 'action-output':
      return kind;
    default:
      return undefined;
  }
}

/** Runs `yang-convert` with `argv` (without node and script); resolves to the exit status. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (e) {
    io.stderr(`yang-convert: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const from = values.from;
  const to = values.to;
  const kind = documentKind(values.kind ?? 'data', values.operation);
  if (
    (from !== 'xml' && from !== 'json') ||
    (to !== 'xml' && to !== 'json') ||
    kind === undefined ||
    positionals.length !== 1
  ) {
    io.stderr(
      `yang-convert: ${kind === undefined ? `unknown --kind "${values.kind}"` : 'expected --from, --to and one FILE'}\n${USAGE}\n`,
    );
    return 2;
  }
  let schema: SchemaTree;
  let text: string;
  try {
    schema = await loadSchema({ paths: values.path ?? [], modules: values.module ?? [] });
    text = io.readFile(positionals[0]!);
  } catch (e) {
    io.stderr(`yang-convert: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const parent = values.parent === undefined ? undefined : schema.find(values.parent);
    if (values.parent !== undefined && parent === undefined) {
      io.stderr(`yang-convert: --parent "${values.parent}" names no schema node\n`);
      return 2;
    }
    const options: DecodeOptions = {
      kind,
      ...(values.operation !== undefined ? { operation: values.operation } : {}),
      ...(parent !== undefined ? { parent } : {}),
      ...(values['yang-data'] !== undefined ? { yangData: values['yang-data'] } : {}),
    };
    const tree = from === 'xml' ? decodeXml(schema, text, options) : decodeJson(schema, text, options);
    const errors = validate(tree);
    if (errors.length > 0) throw errors[0];
    if (values['with-defaults'] !== undefined)
      applyWithDefaults(tree, values['with-defaults'] as WithDefaultsMode);
    const out =
      to === 'json'
        ? encodeJson(tree, { indent: 2, simpleNames: values['simple-json-names'] ?? false })
        : encodeXml(tree, { indent: 2 });
    io.stdout(`${out}\n`);
    return 0;
  } catch (e) {
    if (!CodecError.isInstance(e)) throw e;
    const where = e.errorPath ? ` at ${e.errorPath.json}` : '';
    const app = e.errorAppTag ? `, error-app-tag ${e.errorAppTag}` : '';
    io.stderr(`yang-convert: ${e.message}\n  error-tag ${e.errorTag}${app}${where}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      path: { type: 'string', short: 'p', multiple: true },
      module: { type: 'string', short: 'm', multiple: true },
      from: { type: 'string' },
      to: { type: 'string' },
      kind: { type: 'string' },
      operation: { type: 'string' },
      parent: { type: 'string' },
      'yang-data': { type: 'string' },
      'simple-json-names': { type: 'boolean' },
      'with-defaults': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
