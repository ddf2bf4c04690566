import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { RestconfClientError } from './errors.js';
import type { FetchLike } from './types.js';

/** TLS settings of {@link createNodeFetch}: PEM text or file paths (`caFile`, ...). */
export interface TlsOptions {
  /** CA certificate(s) the server certificate must chain to (`<CA_CERT>`). */
  readonly ca?: string;
  readonly caFile?: string;
  /** Client certificate (`<CLIENT_CERT>`). */
  readonly cert?: string;
  readonly certFile?: string;
  /** Client private key (`<CLIENT_KEY>`). */
  readonly key?: string;
  readonly keyFile?: string;
  /** Password of an encrypted private key (`<PASSWORD>`). */
  readonly passphrase?: string;
  /** Skip server certificate checks (testing only). Default false. */
  readonly insecure?: boolean;
}

function pem(text: string | undefined, file: string | undefined, what: string): string | undefined {
  if (text !== undefined) return text;
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RestconfClientError(
      'INVALID_ARGUMENT',
      `cannot read the ${what} file ${file}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * A fetch for Node whose HTTPS connections use the given CA, client certificate and key
 * (undici `Agent` with `connect` TLS options). Pass it as the `fetch` option of
 * `RestconfClient`; `close()` releases the agent's connections.
 */
export function createNodeFetch(tls: TlsOptions = {}): FetchLike & { close(): Promise<void> } {
  const ca = pem(tls.ca, tls.caFile, 'CA certificate');
  const cert = pem(tls.cert, tls.certFile, 'client certificate');
  const key = pem(tls.key, tls.keyFile, 'client key');
  const agent = new Agent({
    connect: {
      ...(ca === undefined ? {} : { ca }),
      ...(cert === undefined ? {} : { cert }),
      ...(key === undefined ? {} : { key }),
      ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
      ...(tls.insecure ? { rejectUnauthorized: false } : {}),
    },
  });
  const fetchFn = ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(
      input as never,
      { ...(init as object), dispatcher: agent } as never,
    ) as unknown as Promise<Response>) as FetchLike & {
    close(): Promise<void>;
  };
  fetchFn.close = () => agent.close();
  return fetchFn;
}
