import { connectStream, duplexPair } from '@yangkit/netconf-client';
import type { NetconfServer } from '../src/server.js';
import { IF } from '../test/helpers.js';

const IANAIFT = 'urn:ietf:params:xml:ns:yang:iana-if-type';

/** `<interfaces>` holding `n` interfaces `e0`... with a type each. */
export function interfacesXml(n: number): string {
  const parts: string[] = [`<interfaces xmlns="${IF}" xmlns:ianaift="${IANAIFT}">`];
  for (let i = 0; i < n; i++)
    parts.push(`<interface><name>e${i}</name><type>ianaift:ethernetCsmacd</type></interface>`);
  parts.push('</interfaces>');
  return parts.join('');
}

/**
 * Fills running with `n` interfaces through one edit-config of a recovery session (the public API only,
 * past NACM).
 */
export async function fillInterfaces(server: NetconfServer, n: number): Promise<void> {
  const [a, b] = duplexPair();
  server.connect(a, { username: 'filler' }, { recovery: true });
  const session = await connectStream(b);
  await session.editConfig({ target: 'running', config: interfacesXml(n) });
  await session.close();
}

/**
 * A raw base:1.0 session that counts reply bytes without parsing them, so that a read's figure is the
 * server's cost (a client's XML parsing of a large reply costs more than producing it). Each call sends
 * `rpc` (the content of `<rpc>`) and resolves with the reply's size in bytes.
 */
export function rawSession(server: NetconfServer): (rpc: string) => Promise<number> {
  const [a, b] = duplexPair();
  server.connect(a, { username: 'bench' });
  b.write(
    `<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.0</capability></capabilities></hello>]]>]]>`,
  );
  let waiting: ((n: number) => void) | undefined;
  let bytes = 0;
  let tail = '';
  let hello = true;
  b.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - 6))).slice(-6);
    if (tail === ']]>]]>') {
      if (hello) hello = false;
      else waiting?.(bytes);
      bytes = 0;
    }
  });
  let id = 0;
  return (rpc) =>
    new Promise((resolve) => {
      waiting = resolve;
      b.write(`<rpc message-id="${++id}" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">${rpc}</rpc>]]>]]>`);
    });
}
