/**
 * Cost of reading a reply (@yangkit/xml, as a session does) and of the framer, the framer against a
 * baseline in the same run: a plain Buffer.concat of the chunks.
 */
import { childElement, innerXml } from '@yangkit/xml';
import { bench, describe } from 'vitest';
import { createFramer, encodeMessage } from '../src/framing.js';
import { readMessage } from '../src/read-message.js';

// A reply shaped like netconfd's: pretty-printed, namespaces on <rpc-reply>, ~40 KB.
const interfaces = Array.from(
  { length: 120 },
  (_, i) =>
    `      <interface>\n        <name>eth${i}</name>\n        <type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type>\n        <enabled>true</enabled>\n        <description>uplink &amp; test ${i}</description>\n      </interface>\n`,
).join('');
const reply = `<?xml version="1.0" encoding="UTF-8"?>
<rpc-reply message-id="7" xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">
  <data>
    <interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces">
${interfaces}    </interfaces>
  </data>
</rpc-reply>`;

describe(`read a ${Math.round(reply.length / 1024)} KiB rpc-reply`, () => {
  bench('readMessage (checks, namespaces, element tree)', () => {
    readMessage(reply, {});
  });
  bench('readMessage + innerXml of <data>', () => {
    innerXml(childElement(readMessage(reply, {}), 'data')!);
  });
});

const frame = encodeMessage(reply, 'chunked');
const eomFrame = encodeMessage(reply, 'eom');
const slices = (bytes: Buffer) =>
  Array.from({ length: Math.ceil(bytes.length / 1024) }, (_, i) => bytes.subarray(i * 1024, (i + 1) * 1024));
const chunks = slices(frame);
const eomChunks = slices(eomFrame);
let sink = 0;
const chunked = createFramer({ mode: 'chunked', onMessage: (m) => (sink += m.length), onError: () => {} });
const eom = createFramer({ mode: 'eom', onMessage: (m) => (sink += m.length), onError: () => {} });

describe('frame the same reply arriving in 1 KiB chunks', () => {
  bench('Buffer.concat + toString of the chunks (baseline)', () => {
    sink += Buffer.concat(chunks).toString('utf8').length;
  });
  bench('chunked framer (base:1.1)', () => {
    for (const c of chunks) chunked.feed(c);
  });
  bench('end-of-message framer (base:1.0)', () => {
    for (const c of eomChunks) eom.feed(c);
  });
});
