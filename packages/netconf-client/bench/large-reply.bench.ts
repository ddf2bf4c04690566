/**
 * A 100,000-entry `<get>` reply: the full read into a tree against the envelope scan a session uses
 * for large replies, and the same through a session over an in-memory stream.
 */
import { Duplex } from 'node:stream';
import { childElement, innerXml } from '@yangkit/xml';
import { bench, describe } from 'vitest';
import { BASE_1_1 } from '../src/capabilities.js';
import { connectStream } from '../src/client.js';
import { createFramer, encodeMessage } from '../src/framing.js';
import { NETCONF_BASE_NS } from '../src/messages.js';
import { readMessage } from '../src/read-message.js';
import { scanReply } from '../src/reply.js';

const ENTRIES = Number(process.env.ENTRIES ?? 100_000);
const entries: string[] = [];
for (let i = 0; i < ENTRIES; i++) {
  entries.push(
    `<interface><name>eth${i}</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type><enabled>true</enabled></interface>`,
  );
}
const content = `<data><interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces">${entries.join('')}</interfaces></data>`;
const reply = (id: string) =>
  `<rpc-reply message-id="${id}" xmlns="${NETCONF_BASE_NS}">${content}</rpc-reply>`;
const text = reply('1');
const mib = (Buffer.byteLength(text) / 1024 / 1024).toFixed(1);

const limits = { maxElements: Number.POSITIVE_INFINITY };
// One iteration of the full parse takes seconds: a few samples, no warm-up beyond the first call.
const options = { iterations: 3, time: 0, warmupIterations: 0, warmupTime: 0 };

describe(`read a ${ENTRIES}-entry ${mib} MiB rpc-reply`, () => {
  bench(
    'readMessage + innerXml of <data> (full tree)',
    () => {
      void innerXml(childElement(readMessage(text, limits), 'data')!);
    },
    options,
  );
  bench('scanReply (envelope scan, data as a slice)', () => void scanReply(text)?.dataXml, options);
});

/**
 * The client end of an in-memory stream to a server that answers every rpc with the large reply,
 * in chunked framing after the hellos: what the client writes goes to the server's framer, what the
 * server sends is pushed to the client.
 */
function largeReplyServer(): Duplex {
  let mode: 'eom' | 'chunked' = 'eom';
  const client: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, callback) {
      framer.feed(chunk);
      callback();
    },
  });
  const framer = createFramer({
    onMessage(message) {
      if (message.includes('<hello')) {
        mode = 'chunked';
        framer.setMode('chunked');
        return;
      }
      const id = /message-id="([^"]*)"/.exec(message)?.[1] ?? '';
      client.push(encodeMessage(reply(id), mode));
    },
    onError: () => {},
  });
  client.push(
    encodeMessage(
      `<hello xmlns="${NETCONF_BASE_NS}"><capabilities><capability>${BASE_1_1}</capability></capabilities><session-id>1</session-id></hello>`,
      'eom',
    ),
  );
  return client;
}

const scanned = await connectStream(largeReplyServer(), { rpcTimeout: 0 });
const parsed = await connectStream(largeReplyServer(), {
  rpcTimeout: 0,
  fullParseLimit: Number.POSITIVE_INFINITY,
});

describe(`session.get() of the same reply over an in-memory stream`, () => {
  bench(
    'fullParseLimit: Infinity (every reply parsed into a tree)',
    async () => {
      await parsed.get();
    },
    options,
  );
  bench(
    'default fullParseLimit (envelope scan)',
    async () => {
      await scanned.get();
    },
    options,
  );
});
