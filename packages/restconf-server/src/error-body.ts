import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { NetconfError, NetconfRpcError } from '@yangkit/netconf-client';
import { RestconfUriError } from '@yangkit/restconf-uri';
import { escapeXmlText, namespaceDeclarations, replaceNonXmlChars } from '@yangkit/xml';
import {
  CodecError,
  instanceIdFromXml,
  mapXPathPrefixes,
  RESTCONF_NS,
  xmlPathNamespaces,
} from '@yangkit/yang-json-codec';
import { YangPatchError } from '@yangkit/yang-patch';
import type { SchemaTree } from '@yangkit/yang-schema';
import { BackendRpcError, EditError, type RpcErrorFields } from './backend.js';
import { type ErrorPathForms, type ErrorType, RestconfError } from './errors.js';
import {
  bodyType,
  dataMediaType,
  type Encoding,
  type NegotiationOptions,
  negotiateEncoding,
} from './media.js';

/**
 * Translates any failure into the RESTCONF errors it is reported as: restconf-uri, codec and
 * yang-patch errors keep their tag and path; each NETCONF `<rpc-error>` becomes one entry (its
 * XML error-path also gets the RFC 7951 form); anything unexpected is one 500 operation-failed.
 */
export function toRestconfErrors(error: unknown, schema: SchemaTree): RestconfError[] {
  if (RestconfError.isInstance(error)) return [error];
  if (error instanceof EditError) return toRestconfErrors(error.cause, schema);
  if (RestconfUriError.isInstance(error)) {
    return [
      new RestconfError('REQUEST_INVALID', error.message, {
        errorType: 'protocol',
        errorTag: error.errorTag,
        ...(error.httpStatus === 404 ? { reason: 'not-found' as const } : {}),
        errorInfo: error.badValue === undefined ? undefined : { 'bad-value': error.badValue },
        cause: error,
      }),
    ];
  }
  if (CodecError.isInstance(error)) {
    return [
      new RestconfError('BODY_MISMATCH', error.message, {
        errorType: error.errorTag === 'malformed-message' ? 'protocol' : 'application',
        errorTag: error.errorTag,
        errorAppTag: error.errorAppTag,
        errorPath:
          error.errorPath === undefined
            ? undefined
            : {
                ...error.errorPath,
                namespaces: Object.fromEntries(xmlPathNamespaces(schema, error.errorPath.xml)),
              },
        errorInfo: error.errorInfo,
        // RFC 7950 section 15 reports a broken constraint as operation-failed: the client's data is at fault.
        ...(error.errorTag === 'operation-failed' ? { reason: 'invalid-data' as const } : {}),
        cause: error,
      }),
    ];
  }
  if (YangPatchError.isInstance(error)) {
    return [
      new RestconfError('BODY_MISMATCH', error.message, {
        errorType: 'application',
        errorTag: error.errorTag,
        errorAppTag: error.errorAppTag,
        errorPath: error.errorPath,
        errorInfo: error.errorInfo,
        cause: error,
      }),
    ];
  }
  if (error instanceof NetconfRpcError) {
    return fromRpcErrors(
      error.errors.map((e) => ({ ...e, errorInfo: e.errorInfo?.fields })),
      schema,
      error,
    );
  }
  if (error instanceof BackendRpcError) return fromRpcErrors(error.errors, schema, error);
  if (error instanceof NetconfError) {
    return [
      new RestconfError('BACKEND_FAILED', `NETCONF backend failed: ${error.message}`, {
        errorType: 'transport',
        errorTag: 'operation-failed',
        reason: 'unavailable',
        cause: error,
      }),
    ];
  }
  return [
    new RestconfError('INTERNAL', 'internal error', {
      errorType: 'application',
      errorTag: 'operation-failed',
      cause: error,
    }),
  ];
}

/** Each `<rpc-error>` of a backend as one RESTCONF error; its XML error-path also gets the RFC 7951 form. */
function fromRpcErrors(
  errors: readonly RpcErrorFields[],
  schema: SchemaTree,
  cause: unknown,
): RestconfError[] {
  return errors
    .filter((e) => e.errorSeverity !== 'warning')
    .map(
      (e) =>
        new RestconfError(
          'BACKEND_FAILED',
          e.errorMessage ?? `${e.errorTag} reported by the NETCONF server`,
          {
            errorType: (['transport', 'rpc', 'protocol', 'application'].includes(e.errorType)
              ? e.errorType
              : 'application') as ErrorType,
            errorTag: e.errorTag,
            errorAppTag: e.errorAppTag,
            errorPath: e.errorPath === undefined ? undefined : netconfErrorPath(e.errorPath.trim(), schema),
            errorInfo: e.errorInfo,
            cause,
          },
        ),
    );
}

/** True when a failure reports `errorTag` (with `errorAppTag`, when given), whatever the backend. */
export function reportsErrorTag(
  error: unknown,
  schema: SchemaTree,
  errorTag: string,
  errorAppTag?: string,
): boolean {
  return toRestconfErrors(error, schema).some(
    (e) => e.errorTag === errorTag && (errorAppTag === undefined || e.errorAppTag === errorAppTag),
  );
}

/**
 * An XML error-path as NETCONF servers write it (`/jbox:jukebox/jbox:library`) in both forms; the
 * prefixes are taken to be the modules' own prefixes, as servers write them.
 */
export function netconfErrorPath(path: string, schema: SchemaTree): ErrorPathForms {
  // Servers such as netconfd locate data errors inside the request
  // (`/nc:rpc/nc:edit-config/nc:config/if:interfaces/...`, or `nc:copy-config/nc:source/nc:config`);
  // the data-resource path is what follows.
  const inConfig =
    /^\/(?:[\w.-]+:)?rpc\/(?:(?:[\w.-]+:)?edit-config|(?:[\w.-]+:)?copy-config\/(?:[\w.-]+:)?source)\/(?:[\w.-]+:)?config(?=\/)/.exec(
      path,
    );
  const xml = inConfig === null ? path : path.slice(inConfig[0].length);
  const namespaces = xmlPathNamespaces(schema, xml);
  // RFC 7951 section 6.11 form when the path names schema nodes; else each prefix becomes its module's name.
  const json =
    instanceIdFromXml(schema, xml, (prefix) => namespaces.get(prefix)) ??
    mapXPathPrefixes(xml, (prefix) => schema.moduleByNamespace(namespaces.get(prefix) ?? '')?.name);
  return { json, xml, namespaces: Object.fromEntries(namespaces) };
}

/**
 * Longest text of one error field. Messages, paths and error-info quote the request (names,
 * values, keys); cut, a huge input cannot make a huge error body.
 */
export const MAX_ERROR_TEXT = 1024;

/** `text` cut to {@link MAX_ERROR_TEXT} characters, saying how long it was. */
function bounded(text: string): string {
  if (text.length <= MAX_ERROR_TEXT) return text;
  return `${text.slice(0, MAX_ERROR_TEXT)}... (${text.length} characters)`;
}

/** error-info with every value bounded; an entry whose name is longer than the bound is left out. */
function boundedInfo(info: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(info)) {
    if (k.length <= MAX_ERROR_TEXT) out[k] = bounded(v);
  }
  return out;
}

/**
 * The `ietf-restconf:errors` body (RFC 8040 section 7.1) in JSON:
 * `{"ietf-restconf:errors":{"error":[{"error-type":...,"error-tag":...}]}}`.
 */
export function errorsJson(errors: readonly RestconfError[], indent = -1): string {
  const body = {
    'ietf-restconf:errors': {
      error: errors.map((e) => ({
        'error-type': e.errorType,
        'error-tag': bounded(e.errorTag),
        ...(e.errorAppTag === undefined ? {} : { 'error-app-tag': bounded(e.errorAppTag) }),
        ...(e.errorPath === undefined ? {} : { 'error-path': bounded(e.errorPath.json) }),
        'error-message': bounded(e.message),
        ...(e.errorInfo === undefined ? {} : { 'error-info': boundedInfo(e.errorInfo) }),
      })),
    },
  };
  return JSON.stringify(body, null, indent > 0 ? indent : undefined);
}

/**
 * The same body in XML: `<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error>...`,
 * the error-path element declaring the prefixes its instance-identifier uses.
 */
export function errorsXml(errors: readonly RestconfError[]): string {
  // An error must always be written: text quoting the input has what XML 1.0 cannot carry replaced.
  const text = (v: string) => escapeXmlText(replaceNonXmlChars(bounded(v)));
  let out = `<errors xmlns="${RESTCONF_NS}">`;
  for (const e of errors) {
    out += `<error><error-type>${e.errorType}</error-type><error-tag>${text(e.errorTag)}</error-tag>`;
    if (e.errorAppTag !== undefined) out += `<error-app-tag>${text(e.errorAppTag)}</error-app-tag>`;
    if (e.errorPath !== undefined) {
      const decls = namespaceDeclarations(Object.entries(e.errorPath.namespaces ?? {}));
      out += `<error-path${decls}>${text(e.errorPath.xml)}</error-path>`;
    }
    out += `<error-message>${text(e.message)}</error-message>`;
    if (e.errorInfo !== undefined) {
      out += '<error-info>';
      for (const [k, v] of Object.entries(e.errorInfo)) {
        if (k.length <= MAX_ERROR_TEXT && /^[A-Za-z_][\w.-]*$/.test(k)) out += `<${k}>${text(v)}</${k}>`;
      }
      out += '</error-info>';
    }
    out += '</error>';
  }
  return `${out}</errors>`;
}

/** The errors body in an encoding. */
export function errorsBody(errors: readonly RestconfError[], encoding: Encoding, indent = -1): string {
  return encoding === 'json' ? errorsJson(errors, indent) : errorsXml(errors);
}

/**
 * The encoding of an errors body (RFC 8040 section 7.1): the one Accept asks for, else the request
 * body's (its Content-Type), else the default. An Accept or Content-Type that names nothing usable
 * is passed over, since the error must still be written.
 */
export function errorEncoding(headers: IncomingHttpHeaders, options: NegotiationOptions): Encoding {
  let bodyEncoding: Encoding | undefined;
  try {
    if (headers['content-type'] !== undefined)
      bodyEncoding = bodyType(headers['content-type'], options, true).encoding;
  } catch {
    // An unsupported Content-Type says nothing about the encoding the client reads.
  }
  try {
    return negotiateEncoding(headers.accept, options, bodyEncoding);
  } catch {
    return bodyEncoding ?? options.defaultEncoding;
  }
}

/** Settings of {@link answerErrors}. */
export interface ErrorAnswerOptions {
  /** Encoding when neither Accept nor Content-Type names one (RFC 8040 section 5.2); JSON by default. */
  readonly defaultEncoding?: Encoding;
  /** Only the RFC 8040 media types count (the spec's `--restconf-strict-headers`); true by default. */
  readonly strictHeaders?: boolean;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers a request with an `ietf-restconf:errors` body in the encoding {@link errorEncoding}
 * picks and the first error's status, without reading the request body. For servers that refuse a
 * request before the RESTCONF handler sees it (authentication, rate limits), so their answers look
 * like the handler's.
 */
export function answerErrors(
  req: IncomingMessage,
  res: ServerResponse,
  errors: readonly RestconfError[],
  options: ErrorAnswerOptions = {},
): void {
  req.resume();
  const encoding = errorEncoding(req.headers, {
    defaultEncoding: options.defaultEncoding ?? 'json',
    strictHeaders: options.strictHeaders ?? true,
  });
  const first = errors[0]!;
  res.writeHead(first.status, {
    ...options.headers,
    ...(first.allow === undefined ? {} : { Allow: first.allow.join(', ') }),
    'Content-Type': dataMediaType(encoding),
    'Cache-Control': 'no-cache',
    Vary: 'Accept',
  });
  res.end(errorsBody(errors, encoding));
}
