import { basicAuthorization } from './basic-auth.js';
import { parseErrorBody } from './error-body.js';
import { RestconfClientError, RestconfResponseError } from './errors.js';
import { readBody } from './read-body.js';
import type { Conditions, Encoding, FetchLike, RestconfResponse } from './types.js';

/** The media types of RFC 8040 section 11.3 and RFC 8072 section 4.2. */
export const MEDIA = {
  json: 'application/yang-data+json',
  xml: 'application/yang-data+xml',
  patchJson: 'application/yang-patch+json',
  patchXml: 'application/yang-patch+xml',
  yang: 'application/yang',
  xrd: 'application/xrd+xml',
  eventStream: 'text/event-stream',
} as const;

/** One HTTP exchange as the client describes it. */
export interface Exchange {
  readonly method: string;
  readonly url: URL;
  readonly accept: string;
  readonly contentType?: string;
  readonly body?: string;
  readonly conditions?: Conditions;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Status codes that are not errors besides 2xx (e.g. 404 for `remove`). */
  readonly allow?: readonly number[];
}

/** The settings of a transport, taken from the client options. */
export interface TransportSettings {
  readonly fetch: FetchLike;
  readonly headers: Readonly<Record<string, string>>;
  readonly authorization?: string;
  readonly maxResponseBytes: number;
}

/** Builds transport settings from user-facing options. */
export function transportSettings(options: {
  fetch?: FetchLike;
  headers?: Readonly<Record<string, string>>;
  auth?: { readonly user: string; readonly password: string };
  maxResponseBytes?: number;
}): TransportSettings {
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    fetch: fetchFn,
    headers: options.headers ?? {},
    maxResponseBytes: options.maxResponseBytes ?? 16 * 1024 * 1024,
    ...(options.auth ? { authorization: basicAuthorization(options.auth.user, options.auth.password) } : {}),
  };
}

const httpDate = (value: string | Date) => (typeof value === 'string' ? value : value.toUTCString());

/** The request headers of an exchange. */
export function requestHeaders(settings: TransportSettings, exchange: Exchange): Headers {
  const headers = new Headers(settings.headers);
  headers.set('accept', exchange.accept);
  if (exchange.contentType !== undefined) headers.set('content-type', exchange.contentType);
  if (settings.authorization !== undefined) headers.set('authorization', settings.authorization);
  const c = exchange.conditions;
  if (c?.ifMatch !== undefined) headers.set('if-match', c.ifMatch);
  if (c?.ifNoneMatch !== undefined) headers.set('if-none-match', c.ifNoneMatch);
  if (c?.ifModifiedSince !== undefined) headers.set('if-modified-since', httpDate(c.ifModifiedSince));
  if (c?.ifUnmodifiedSince !== undefined) headers.set('if-unmodified-since', httpDate(c.ifUnmodifiedSince));
  for (const [name, value] of Object.entries(exchange.headers ?? {})) headers.set(name, value);
  return headers;
}

/** Calls fetch, turning its failures into `NETWORK` or `ABORTED` errors. */
export async function open(settings: TransportSettings, exchange: Exchange): Promise<Response> {
  try {
    // One URL has a JSON and an XML representation and conditional requests are the
    // caller's: a browser cache must neither answer for the server nor add validators.
    const init: RequestInit & { cache: 'no-store' } = {
      method: exchange.method,
      headers: requestHeaders(settings, exchange),
      cache: 'no-store',
      ...(exchange.body === undefined ? {} : { body: exchange.body }),
      ...(exchange.signal ? { signal: exchange.signal } : {}),
    };
    return await settings.fetch(exchange.url, init);
  } catch (error) {
    if (exchange.signal?.aborted) {
      throw new RestconfClientError('ABORTED', `${exchange.method} ${exchange.url.pathname} was aborted`, {
        cause: error,
      });
    }
    const reason = (error as { cause?: { message?: string } })?.cause?.message ?? (error as Error)?.message;
    throw new RestconfClientError('NETWORK', `${exchange.method} ${exchange.url.href} failed: ${reason}`, {
      cause: error,
    });
  }
}

/** Throws the {@link RestconfResponseError} of a 4xx/5xx response, reading its error body. */
export async function failFrom(response: Response, maxBytes: number): Promise<never> {
  const text = await readBody(response, maxBytes).catch(() => '');
  let entries: ReturnType<typeof parseErrorBody> = [];
  try {
    entries = parseErrorBody(text, response.headers.get('content-type') ?? '');
  } catch {
    // A body that is not an error body still leaves the status and the raw text.
  }
  throw new RestconfResponseError(response.status, entries, response.headers, text);
}

/** Sends an exchange and decodes the answer; 4xx/5xx become {@link RestconfResponseError}. */
export async function send(settings: TransportSettings, exchange: Exchange): Promise<RestconfResponse> {
  const response = await open(settings, exchange);
  const allowed = exchange.allow?.includes(response.status) ?? false;
  if (response.status >= 400 && !allowed) await failFrom(response, settings.maxResponseBytes);
  let text: string;
  try {
    text = await readBody(response, settings.maxResponseBytes);
  } catch (error) {
    if (RestconfClientError.isInstance(error)) throw error;
    throw new RestconfClientError('NETWORK', `reading the response failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const contentType = response.headers.get('content-type') ?? '';
  let data: unknown;
  if (text !== '' && /json/i.test(contentType)) {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new RestconfClientError(
        'INVALID_RESPONSE',
        `response body is not the JSON its ${contentType} says`,
        {
          cause: error,
        },
      );
    }
  } else if (text !== '') {
    data = text;
  }
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  const location = response.headers.get('location');
  return {
    status: response.status,
    headers: response.headers,
    data,
    text,
    notModified: response.status === 304,
    ...(etag === null ? {} : { etag }),
    ...(lastModified === null ? {} : { lastModified }),
    ...(location === null ? {} : { location: new URL(location, exchange.url).href }),
  };
}

/** The `Content-Type` of a data body in an encoding. */
export const dataMedia = (encoding: Encoding): string => (encoding === 'xml' ? MEDIA.xml : MEDIA.json);
