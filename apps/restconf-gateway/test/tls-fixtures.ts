import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** PEM files of a throwaway PKI made with openssl for one test file; paths and contents. */
export interface TestPki {
  readonly dir: string;
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** `serverKey` encrypted with {@link KEY_PASSPHRASE}. */
  readonly serverKeyEncrypted: string;
  /** CN=alice with rfc822, DNS and IP subjectAltNames. */
  readonly alice: ClientFiles;
  /** CN=bob, no subjectAltName. */
  readonly bob: ClientFiles;
  /** CN=carol with one IPv6 subjectAltName. */
  readonly carol: ClientFiles;
  /** CN=alice, signed by a CA the server does not trust. */
  readonly mallory: ClientFiles;
  /** Reads a PEM file. */
  pem(file: string): string;
  /** The certificate of a PEM file. */
  x509(file: string): X509Certificate;
}

/** A client certificate and its key. */
export interface ClientFiles {
  readonly cert: string;
  readonly key: string;
}

/** The passphrase of the encrypted server key. */
export const KEY_PASSPHRASE = 'correct horse';

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function key(dir: string, name: string): string {
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  return path.join(dir, `${name}.key`);
}

function ca(dir: string, name: string, cn: string): void {
  key(dir, name);
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-subj',
    `/CN=${cn}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

function leaf(dir: string, name: string, caName: string, subject: string, extensions: string): ClientFiles {
  const keyFile = key(dir, name);
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  writeFileSync(path.join(dir, `${name}.ext`), `basicConstraints=CA:FALSE\n${extensions}\n`);
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${caName}.pem`,
    '-CAkey',
    `${caName}.key`,
    '-CAcreateserial',
    '-out',
    `${name}.pem`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
  return { cert: path.join(dir, `${name}.pem`), key: keyFile };
}

/** Makes a CA, a server certificate for 127.0.0.1 and client certificates in a temporary folder. */
export function makeTestPki(): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-pki-'));
  ca(dir, 'ca', 'yangkit test CA');
  ca(dir, 'rogue-ca', 'rogue CA');
  const server = leaf(
    dir,
    'server',
    'ca',
    '/CN=localhost',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
  );
  openssl(dir, [
    'pkey',
    '-in',
    'server.key',
    '-aes-256-cbc',
    '-passout',
    `pass:${KEY_PASSPHRASE}`,
    '-out',
    'server-encrypted.key',
  ]);
  const client = 'extendedKeyUsage=clientAuth';
  return {
    dir,
    caCert: path.join(dir, 'ca.pem'),
    serverCert: server.cert,
    serverKey: server.key,
    serverKeyEncrypted: path.join(dir, 'server-encrypted.key'),
    alice: leaf(
      dir,
      'alice',
      'ca',
      '/O=yangkit/CN=alice',
      `subjectAltName=email:Alice.Smith@Example.COM,DNS:Alice.Example.NET,IP:192.0.2.7\n${client}`,
    ),
    bob: leaf(dir, 'bob', 'ca', '/CN=bob', client),
    carol: leaf(dir, 'carol', 'ca', '/CN=carol', `subjectAltName=IP:2001:db8::a:1\n${client}`),
    mallory: leaf(dir, 'mallory', 'rogue-ca', '/CN=alice', client),
    pem: (file) => readFileSync(file, 'utf8'),
    x509: (file) => new X509Certificate(readFileSync(file)),
  };
}
