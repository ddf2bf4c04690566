import { closeSync, openSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadSchema, type SchemaNode, type SchemaTree } from '@yangkit/yang-schema';
import { decodeJson } from './decode-json';
import { decodeXml } from './decode-xml';
import type { DecodeOptions } from './decoder';
import { operationOfJson, operationOfXml } from './document-operation';
import { encodeJsonChunks } from './encode-json';
import { encodeXmlChunks } from './encode-xml';
import { CodecError } from './errors';
import type { DocumentKind } from './instance';
import { NotUtf8Error, utf8Pieces } from './utf8-pieces';
import { validate } from './validate';
import type { WithDefaultsMode } from './with-defaults';

/** Where the CLI reads and writes; injectable so tests run it in-process. */
export interface CliIo {
  /**
   * Writes `text`; a promise when the output holds as much as it buffers (a pipe read slowly): the
   * next write waits for it, so that output never piles up in memory.
   */
  readonly stdout: (text: string) => void | Promise<void>;
  readonly stderr: (text: string) => void;
  /** The text of a file (`-`: standard input), whole or in pieces read as they are decoded. */
  readonly readFile: (file: string) => string | Iterable<string>;
}

const USAGE = `usage: yang-convert --path DIR... --module NAME... --from xml|json --to json|xml
                    [--kind data|config|resource|rpc|reply|notification|yang-data]
                    [--operation MODULE:NAME | /PATH/TO/ACTION] [--yang-data MODULE:NAME]
                    [--parent /SCHEMA/PATH] [--simple-json-names] [--with-defaults MODE] FILE|-

Converts one document between NETCONF XML and RFC 7951 JSON through the compiled schema, validating it
on the way. JSON is printed with 2-space indentation, XML with one element per line. Exit status 1 and
the error on stderr when the input is invalid, 2 on a usage error.

rpc and reply documents: --operation may be left out when the document names the operation (<play>,
"example-jukebox:play", or the data nodes leading to an action, with or without <rpc> and <action>);
the output is the RESTCONF form (<input>, "module:input"). notification documents: the event alone
(yanglint -t notif) or inside <notification> / "ietf-restconf:notification" with its eventTime; the
output keeps the form of the input.`;

/**
 * Bytes of a file read at a time: small enough for each piece (and the text being read, the rest
 * of the last piece before it) to be a young object, which dies young; V8 puts a string of more
 * than 128 KB in the old generation, where a megabyte piece would wait for a full collection
 * (about 100 MB of such garbage over a 53 MB document).
 */
const READ_SIZE = 64 * 1024;

/**
 * The text of `file` (UTF-8; `-`: standard input, the descriptor `stdin`) in pieces, read as they are
 * asked for: a document is decoded as it is read (a piped one as it arrives), never held whole beside
 * its tree. A file is opened at once, so that a missing one is reported before any work; it is closed
 * at the end, standard input is left open.
 * @internal
 */
export function readPieces(file: string, stdin = 0): Iterable<string> {
  const fd = file === '-' ? stdin : openSync(file, 'r');
  return (function* () {
    try {
      yield* utf8Pieces(fd, READ_SIZE);
    } finally {
      if (fd !== stdin) closeSync(fd);
    }
  })();
}

/** A text given whole or in pieces, as one string. */
function wholeText(text: string | Iterable<string>): string {
  return typeof text === 'string' ? text : [...text].join('');
}

/**
 * What writes to `out` (standard output): a promise of its `drain` when it buffers more than its
 * high-water mark. A reader that stops early (`| head`) closes the pipe: the rest is not wanted, so
 * `closed` ends the process quietly, as a command killed by SIGPIPE ends, rather than with the stack
 * of an unhandled EPIPE.
 * @internal
 */
export function outputWriter(out: Writable, closed: () => void): (text: string) => void | Promise<void> {
  out.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed();
  });
  return (text) => {
    if (out.write(text)) return;
    return new Promise((resolve) => out.once('drain', resolve));
  };
}

const defaultIo: CliIo = {
  stdout: outputWriter(process.stdout, () => process.exit(process.exitCode ?? 0)),
  stderr: (t) => process.stderr.write(t),
  readFile: (f) => readPieces(f),
};

const KINDS = [
  'data',
  'config',
  'resource',
  'rpc',
  'reply',
  'notification',
  'yang-data',
  'rpc-input',
  'rpc-output',
  'action-input',
  'action-output',
] as const;

/** Kinds of document that hold the input or output of one rpc or action. */
const OPERATION_KINDS: ReadonlySet<string> = new Set([
  'rpc',
  'reply',
  'rpc-input',
  'rpc-output',
  'action-input',
  'action-output',
]);

function documentKind(kind: (typeof KINDS)[number], action: boolean): DocumentKind {
  if (kind === 'rpc') return action ? 'action-input' : 'rpc-input';
  if (kind === 'reply') return action ? 'action-output' : 'rpc-output';
  return kind;
}

function isKind(kind: string): kind is (typeof KINDS)[number] {
  return (KINDS as readonly string[]).includes(kind);
}

/**
 * The rpc or action the document names (libyang's forms: `<play>`,
 * `"example-jukebox:play"`, an action inside its data path, with or without the NETCONF envelope).
 */
function operationOf(schema: SchemaTree, from: 'xml' | 'json', text: string): SchemaNode | undefined {
  if (from === 'xml') return operationOfXml(schema, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // decodeJson reports the malformed text
  }
  return operationOfJson(schema, value)?.operation;
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
  const kindName = values.kind ?? 'data';
  if (
    (from !== 'xml' && from !== 'json') ||
    (to !== 'xml' && to !== 'json') ||
    !isKind(kindName) ||
    positionals.length !== 1
  ) {
    io.stderr(
      `yang-convert: ${isKind(kindName) ? 'expected --from, --to and one FILE' : `unknown --kind "${kindName}"`}\n${USAGE}\n`,
    );
    return 2;
  }
  let schema: SchemaTree;
  let text: string | Iterable<string>;
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
    const forOperation = OPERATION_KINDS.has(kindName);
    let operation: string | SchemaNode | undefined = values.operation;
    if (forOperation && operation === undefined) {
      // Named by the document: it is read whole to find it (an rpc or action document is small).
      const whole = wholeText(text);
      operation = operationOf(schema, from, whole);
      text = whole;
    }
    if (forOperation && operation === undefined) {
      io.stderr(
        `yang-convert: the document names no rpc or action of the schema (a RESTCONF "input" does not): give --operation\n`,
      );
      return 2;
    }
    const action = typeof operation === 'string' ? operation.startsWith('/') : operation?.kind === 'action';
    const options: DecodeOptions = {
      kind: documentKind(kindName, action),
      ...(operation !== undefined ? { operation } : {}),
      ...(parent !== undefined ? { parent } : {}),
      ...(values['yang-data'] !== undefined ? { yangData: values['yang-data'] } : {}),
    };
    // Either decodes the text as it reads it: the document is never held whole beside its tree.
    const tree = from === 'xml' ? decodeXml(schema, text, options) : decodeJson(schema, text, options);
    const errors = validate(tree);
    if (errors.length > 0) throw errors[0];
    // Written chunk by chunk: a large document never exists as one string beside its tree; the
    // with-defaults mode applies as it is written.
    const view =
      values['with-defaults'] === undefined
        ? {}
        : { withDefaults: values['with-defaults'] as WithDefaultsMode };
    const chunks =
      to === 'json'
        ? encodeJsonChunks(tree, { indent: 2, simpleNames: values['simple-json-names'] ?? false, view })
        : encodeXmlChunks(tree, { indent: 2, view });
    for (const chunk of chunks) {
      const full = io.stdout(chunk);
      if (full !== undefined) await full;
    }
    await io.stdout('\n');
    return 0;
  } catch (thrown) {
    const e = thrown instanceof NotUtf8Error ? malformedText(from, thrown) : thrown;
    if (!CodecError.isInstance(e)) throw e;
    const where = e.errorPath ? ` at ${e.errorPath.json}` : '';
    const app = e.errorAppTag ? `, error-app-tag ${e.errorAppTag}` : '';
    io.stderr(`yang-convert: ${e.message}\n  error-tag ${e.errorTag}${app}${where}\n`);
    return 1;
  }
}

/** Text that is not UTF-8, as the decoders report text they cannot read: a malformed document. */
function malformedText(from: 'xml' | 'json', error: NotUtf8Error): CodecError {
  return new CodecError(
    from === 'xml' ? 'XML_MALFORMED' : 'JSON_MALFORMED',
    `malformed ${from.toUpperCase()}: ${error.message}`,
    {
      errorTag: 'malformed-message',
      cause: error,
    },
  );
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
