import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { GatewayError } from '../errors.js';
import type { GatewayOptions } from '../options.js';

/** The TLS settings of the HTTPS server, read from the files the flags name. */
export interface ServerTls extends SecureContextOptions {
  /** Ask clients for a certificate (with `--tls-ca`). */
  readonly requestCert: boolean;
  /** Refuse the handshake without a certificate that chains to `--tls-ca` (`require`). */
  readonly rejectUnauthorized: boolean;
}

function readPem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new GatewayError('FILE', `cannot read ${flag} ${file}`, { cause: error });
  }
}

/**
 * Reads `--tls-cert`, `--tls-key` (with its passphrase) and `--tls-ca`, and checks that they make
 * a usable TLS context, so that a wrong passphrase or a key that does not fit the certificate is
 * reported at start. Undefined without `--tls-cert`.
 */
export function serverTls(options: GatewayOptions): ServerTls | undefined {
  if (options.tlsCert === undefined || options.tlsKey === undefined) return undefined;
  const ca = options.tlsCa === undefined ? undefined : readPem(options.tlsCa, '--tls-ca');
  const tls: ServerTls = {
    cert: readPem(options.tlsCert, '--tls-cert'),
    key: readPem(options.tlsKey, '--tls-key'),
    ...(options.tlsKeyPassphrase === undefined ? {} : { passphrase: options.tlsKeyPassphrase }),
    ...(ca === undefined ? {} : { ca }),
    requestCert: ca !== undefined,
    rejectUnauthorized: ca !== undefined && options.tlsClientAuth === 'require',
  };
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new GatewayError(
      'FILE',
      `cannot use --tls-cert/--tls-key${ca === undefined ? '' : '/--tls-ca'} (wrong passphrase, a key that does not fit the certificate, or not PEM): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return tls;
}
