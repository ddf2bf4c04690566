import type { Duplex } from 'node:stream';
import { readXmlDocument as parseXml, type XmlElement } from '@yangkit/xml';
import { duplexPair } from '../src/duplex-pair.js';
import { createFramer, encodeMessage, type FramingMode } from '../src/framing.js';

export { duplexPair };

export const BASE = 'urn:ietf:params:xml:ns:netconf:base:1.0';

/** What the scripted server answers to one `<rpc>`: reply content XML, or `undefined` for silence. */
export type RpcHandler = (operation: XmlElement, messageId: string, server: FakeServer) => string | undefined;

export interface FakeServer {
  stream: Duplex;
  /** Messages the server received after the client hello, as text. */
  received: string[];
  clientHello?: XmlElement;
  send(xml: string): void;
  mode(): FramingMode;
}

/**
 * A scripted NETCONF server on the other end of a duplex pair, built on the same framer the
 * client uses: it sends its hello, switches to chunked framing when both peers offer base:1.1,
 * and answers each rpc through `handler`.
 */
export function fakeServer(options: FakeServerOptions = {}): { client: Duplex; server: FakeServer } {
  const [client, serverStream] = duplexPair();
  return { client, server: attachFakeServer(serverStream, options) };
}

/** Options of the scripted server. */
export interface FakeServerOptions {
  capabilities?: string[];
  sessionId?: number | null;
  handler?: RpcHandler;
  hello?: string;
}

/** Runs the scripted server on the given stream (an in-memory pipe end or an SSH channel). */
export function attachFakeServer(serverStream: Duplex, options: FakeServerOptions = {}): FakeServer {
  const capabilities = options.capabilities ?? [
    'urn:ietf:params:netconf:base:1.0',
    'urn:ietf:params:netconf:base:1.1',
  ];
  let mode: FramingMode = 'eom';
  const server: FakeServer = {
    stream: serverStream,
    received: [],
    send: (xml) => serverStream.write(encodeMessage(xml, mode)),
    mode: () => mode,
  };
  const framer = createFramer({
    onMessage(text) {
      const el = parseXml(text);
      if (el.local === 'hello') {
        server.clientHello = el;
        const offers11 = text.includes('urn:ietf:params:netconf:base:1.1');
        if (offers11 && capabilities.includes('urn:ietf:params:netconf:base:1.1')) {
          mode = 'chunked';
          framer.setMode('chunked');
        }
        return;
      }
      server.received.push(text);
      const messageId = el.attributes.find((a) => a.local === 'message-id')?.value ?? '';
      const operation = el.children.find((c): c is XmlElement => typeof c !== 'string');
      if (!operation) return;
      const reply = (options.handler ?? (() => '<ok/>'))(operation, messageId, server);
      if (reply !== undefined)
        server.send(`<rpc-reply xmlns="${BASE}" message-id="${messageId}">${reply}</rpc-reply>`);
    },
    onError(error) {
      serverStream.destroy(error);
    },
  });
  serverStream.on('data', (chunk: Buffer) => framer.feed(chunk));
  serverStream.on('error', () => {});
  const sessionId = options.sessionId === undefined ? 7 : options.sessionId;
  const caps = capabilities.map((c) => `<capability>${c}</capability>`).join('');
  const idXml = sessionId === null ? '' : `<session-id>${sessionId}</session-id>`;
  serverStream.write(
    encodeMessage(
      options.hello ?? `<hello xmlns="${BASE}"><capabilities>${caps}</capabilities>${idXml}</hello>`,
      'eom',
    ),
  );
  return server;
}
