import type { IncomingMessage } from 'node:http';
import { TextDecoder } from 'node:util';
import {
  type DecodeOptions,
  decodeJsonSteps,
  decodeXmlSteps,
  finishInSlices,
  type InstanceTree,
} from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { BodySlot } from './body-admission.js';
import type { RequestContext, Settings } from './context.js';
import type { Body } from './edit.js';
import { RestconfError } from './errors.js';
import { bodyType } from './media.js';
import { valueLimits } from './value-limits.js';

/** A request body read in full, and whether it is a YANG Patch (RFC 8072). */
export interface RequestBody extends Body {
  readonly patch: boolean;
}

/**
 * The body of a POST, PUT or PATCH and its encoding from its Content-Type (RFC 8040 section 5.2),
 * read once `slot` admits it: the media type is checked (415) before the request waits or any
 * byte is read. Undefined when the request has neither a body nor a Content-Type, which is 400
 * where the request needs a body (`required`). YANG Patch media types are accepted where `patch`.
 */
export async function readRequestBody(
  s: Settings,
  req: IncomingMessage,
  slot: BodySlot,
  { patch, required }: { patch: boolean; required: boolean },
): Promise<RequestBody | undefined> {
  const present = hasBody(req);
  const contentType = req.headers['content-type'];
  if (!present && contentType === undefined) {
    if (!required) return undefined;
    throw new RestconfError('BODY_MISMATCH', 'the request needs a body', { errorTag: 'malformed-message' });
  }
  const type = bodyType(contentType, s, patch);
  const text = present ? await readBody(req, await slot.take(s.maxBodyBytes)) : '';
  return { text, encoding: type.encoding, patch: type.patch };
}

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (413 too-big) before it is
 * buffered, and bytes that are not UTF-8 (400 malformed-message). Middleware that already parsed
 * the body (`req.body` as a string or Buffer) is honoured.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const pre = (req as IncomingMessage & { body?: unknown }).body;
  if (typeof pre === 'string') return pre;
  if (Buffer.isBuffer(pre)) {
    const decoder = utf8Decoder();
    return utf8(decoder, pre) + utf8(decoder);
  }
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) throw tooBig(maxBytes);
  // Decoded chunk by chunk as they arrive, so that a big body's bytes are never held beside its
  // text (the joined string is the one copy that stays).
  const decoder = utf8Decoder();
  const pieces: string[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooBig(maxBytes);
      pieces.push(utf8(decoder, chunk));
    }
  } catch (error) {
    req.resume();
    throw error;
  }
  // The end: a UTF-8 sequence cut short there is an error too.
  pieces.push(utf8(decoder));
  return pieces.join('');
}

/** Keeps a byte order mark as U+FEFF, as Buffer#toString did: the parsers decide about it. */
function utf8Decoder(): TextDecoder {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
}

/**
 * Decodes the next bytes of the body (the end without `bytes`), refusing bytes that are not UTF-8
 * rather than storing U+FFFD in their place. Both media types are UTF-8 text (RFC 8259 section
 * 8.1; for XML without an encoding declaration, XML 1.0 section 4.3.3 makes bytes that are not
 * UTF-8 a fatal error): such a body is not a well-formed message, so `malformed-message` (RFC 8040
 * section 7), not `invalid-value`, which names a value of the data model.
 */
function utf8(decoder: TextDecoder, bytes?: Buffer): string {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
  } catch (cause) {
    throw new RestconfError('BODY_MISMATCH', 'the request body is not UTF-8 text', {
      errorTag: 'malformed-message',
      cause,
    });
  }
}

function tooBig(maxBytes: number): RestconfError {
  return new RestconfError('BODY_TOO_LARGE', `request body larger than ${maxBytes} bytes`, {
    errorTag: 'too-big',
  });
}

/**
 * True when the request carries a body (Content-Length > 0 or chunked; over HTTP/2, whose
 * requests need neither, when the HEADERS frame did not end the stream: RFC 9113 section 8.1).
 */
export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  if (len !== undefined) return Number(len) > 0;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const stream = (req as IncomingMessage & { stream?: { endAfterHeaders?: unknown } }).stream;
  return req.httpVersionMajor === 2 && stream?.endAfterHeaders === false;
}

/**
 * Decodes a request body (the text of `body`, or `text` in its place) in slices that give the
 * event loop back every few milliseconds, so that a big body does not hold the server's other
 * requests while it decodes; the value and the errors are those of the codec's decode at once.
 */
export function decodeBody(
  ctx: RequestContext,
  body: Body,
  options: DecodeOptions,
  text: string = body.text,
): Promise<InstanceTree> {
  const { schema } = ctx.settings;
  return finishInSlices(
    body.encoding === 'json' ? decodeJsonSteps(schema, text, options) : decodeXmlSteps(schema, text, options),
  );
}

/** Decodes the input of an operation (RFC 8040 section 4.4.2); undefined without a body. */
export async function decodeInput(
  ctx: RequestContext,
  body: Body | undefined,
  op: SchemaNode,
): Promise<InstanceTree | undefined> {
  if (body === undefined || body.text.trim() === '') return undefined;
  const kind = op.kind === 'action' ? ('action-input' as const) : ('rpc-input' as const);
  const options = {
    kind,
    operation: op,
    simpleNames: ctx.settings.simpleJsonNames,
    ...valueLimits(ctx.settings),
  };
  return decodeBody(ctx, body, options);
}
