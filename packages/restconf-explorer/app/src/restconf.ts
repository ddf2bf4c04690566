/** One answer of the server, as the explorer shows it. */
export interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly text: string;
  /** The `ietf-restconf:errors` entries of an error body (JSON or XML), if any. */
  readonly errors: readonly ErrorEntry[];
}

/** One `error` of an `ietf-restconf:errors` body (RFC 8040 section 7.1). */
export interface ErrorEntry {
  readonly type: string;
  readonly tag: string;
  readonly appTag?: string;
  readonly path?: string;
  readonly message?: string;
}

export type Encoding = 'json' | 'xml';

/** The media type of an encoding (RFC 8040 section 11.3). */
export function dataMedia(encoding: Encoding): string {
  return `application/yang-data+${encoding}`;
}

/** The error entries of a body, JSON or XML; none when it is no errors body. */
export function errorsOf(contentType: string, text: string): ErrorEntry[] {
  if (contentType.includes('json')) {
    try {
      const errors = JSON.parse(text)?.['ietf-restconf:errors']?.error;
      if (!Array.isArray(errors)) return [];
      return errors.map((e: Record<string, unknown>) => ({
        type: String(e['error-type'] ?? ''),
        tag: String(e['error-tag'] ?? ''),
        ...(e['error-app-tag'] === undefined ? {} : { appTag: String(e['error-app-tag']) }),
        ...(e['error-path'] === undefined ? {} : { path: String(e['error-path']) }),
        ...(e['error-message'] === undefined ? {} : { message: String(e['error-message']) }),
      }));
    } catch {
      return [];
    }
  }
  if (!contentType.includes('xml') || !text.includes('<errors')) return [];
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  return [...doc.getElementsByTagNameNS('*', 'error')].map((e) => {
    const field = (name: string): string | undefined =>
      e.getElementsByTagNameNS('*', name)[0]?.textContent ?? undefined;
    return {
      type: field('error-type') ?? '',
      tag: field('error-tag') ?? '',
      ...(field('error-app-tag') === undefined ? {} : { appTag: field('error-app-tag')! }),
      ...(field('error-path') === undefined ? {} : { path: field('error-path')! }),
      ...(field('error-message') === undefined ? {} : { message: field('error-message')! }),
    };
  });
}

/**
 * Sends one request to the server, same-origin: the browser adds the credentials it holds for
 * the page (HTTP Basic, a client certificate), so the explorer uses the server's authentication.
 */
export async function send(
  method: string,
  url: string,
  options: { accept?: string; contentType?: string; body?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.accept !== undefined) headers.Accept = options.accept;
  if (options.contentType !== undefined) headers['Content-Type'] = options.contentType;
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  return {
    status: res.status,
    statusText: res.statusText,
    contentType,
    text,
    errors: res.ok ? [] : errorsOf(contentType, text),
  };
}

/** Pretty JSON when the text is JSON, else the text. */
export function pretty(text: string, contentType: string): string {
  if (!contentType.includes('json') || text === '') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
