import { type Gateway, type GatewayOptions, startGateway } from '@yangkit/restconf-gateway';
import { pino } from 'pino';

/** Media types of RFC 8040 section 11.3 and RFC 8072 section 4.2. */
export const DATA_JSON = 'application/yang-data+json';
export const DATA_XML = 'application/yang-data+xml';
export const PATCH_JSON = 'application/yang-patch+json';
export const PATCH_XML = 'application/yang-patch+xml';

/** The gateway under test, with fetch relative to its base URL. */
export interface Server {
  readonly gateway: Gateway;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the real app (its exported `startGateway`) on 127.0.0.1, a free port, logging nothing. */
export async function startServer(options: GatewayOptions = {}): Promise<Server> {
  const gateway = await startGateway({ port: 0, ...options }, { logger: pino({ level: 'silent' }) });
  return {
    gateway,
    fetch: (path, init) => fetch(gateway.url + path, init),
    close: () => gateway.close(),
  };
}

/** A request with a JSON body. */
export function sendJson(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'Content-Type': DATA_JSON, ...headers }, body: JSON.stringify(body) };
}

/** A request with an XML body. */
export function sendXml(method: string, body: string, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'Content-Type': DATA_XML, ...headers }, body };
}

/** The `error` entries of an `ietf-restconf:errors` JSON body. */
export async function errorsOf(r: Response): Promise<Record<string, unknown>[]> {
  const body = (await r.json()) as { 'ietf-restconf:errors'?: { error?: Record<string, unknown>[] } };
  return body['ietf-restconf:errors']?.error ?? [];
}

/**
 * Opens the SSE stream at `path`, runs `trigger`, and reads until the text holds `until` (or 10 s
 * pass); answers the text read. The stream must answer 200.
 */
export async function readStreamUntil(
  s: Server,
  path: string,
  trigger: () => Promise<void>,
  until: string,
): Promise<string> {
  const abort = new AbortController();
  const r = await s.fetch(path, { headers: { Accept: 'text/event-stream' }, signal: abort.signal });
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  if (!r.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`${path} answered ${r.headers.get('content-type')}`);
  await trigger();
  const reader = r.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 10_000;
  while (!text.includes(until) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  abort.abort();
  return text;
}
