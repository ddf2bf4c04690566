import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readmeExamples, runExample } from '../../../test-support/readme-examples.js';
import { runCli } from '../src/cli-run.js';
import { RestconfClient } from '../src/index.js';
import { createNodeFetch } from '../src/node.js';

const tls = (name: string) => path.resolve(__dirname, 'fixtures/tls', name);
let server: https.Server;
let url: string;

// An HTTPS RESTCONF root that requires a client certificate signed by the test CA and
// answers with the certificate's common name.
beforeAll(async () => {
  server = https.createServer(
    {
      key: readFileSync(tls('server.key')),
      cert: readFileSync(tls('server.pem')),
      ca: readFileSync(tls('ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      if (req.url === '/.well-known/host-meta') {
        res.writeHead(200, { 'content-type': 'application/xrd+xml' });
        res.end(
          '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0"><Link rel="restconf" href="/restconf"/></XRD>',
        );
        return;
      }
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.writeHead(200, { 'content-type': 'application/yang-data+json' });
      res.end(JSON.stringify({ 'example:peer': { cn: peer.subject?.CN } }));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('connects with a CA file, a client certificate and an encrypted key', async () => {
  const fetch = createNodeFetch({
    caFile: tls('ca.pem'),
    certFile: tls('client.pem'),
    keyFile: tls('client.key'),
    passphrase: 'key-secret',
  });
  const client = new RestconfClient({ baseUrl: url, fetch });
  const response = await client.get('/example:peer');
  expect(response.data).toEqual({ 'example:peer': { cn: 'admin' } });
  await fetch.close();
});

test('the README HTTPS example runs as written against this server', async () => {
  const example = readmeExamples(path.resolve(__dirname, '../README.md')).find((e) =>
    e.code.includes('createNodeFetch'),
  )!;
  await runExample(example, [
    ["'ca.pem'", `'${tls('ca.pem')}'`],
    ["'client.pem'", `'${tls('client.pem')}'`],
    ["'client.key'", `'${tls('client.key')}'`],
    ["passphrase: 'secret'", "passphrase: 'key-secret'"],
    ['https://router.example:8443', url],
  ]);
});

test('fails with NETWORK when the server certificate is not trusted', async () => {
  const fetch = createNodeFetch({
    certFile: tls('client.pem'),
    keyFile: tls('client.key'),
    passphrase: 'key-secret',
  });
  const client = new RestconfClient({ baseUrl: url, fetch });
  await expect(client.get('/example:peer')).rejects.toMatchObject({ code: 'NETWORK' });
  await fetch.close();
});

test('reports an unreadable certificate file as INVALID_ARGUMENT', () => {
  expect(() => createNodeFetch({ certFile: tls('missing.pem') })).toThrow(
    expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
  );
});

test('the CLI takes --cert, --key, --ca and --key-password-file', async () => {
  const passwordFile = path.join(tmpdir(), `yangkit-key-password-${process.pid}`);
  writeFileSync(passwordFile, 'key-secret\n');
  let stdout = '';
  const code = await runCli(
    [
      '--server',
      url,
      '--cert',
      tls('client.pem'),
      '--key',
      tls('client.key'),
      '--key-password-file',
      passwordFile,
      '--ca',
      tls('ca.pem'),
      'sget',
      '/example:peer',
    ],
    { stdout: (t) => (stdout += t), stderr: () => {} },
  );
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual({ 'example:peer': { cn: 'admin' } });
});
