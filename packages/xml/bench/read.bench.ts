/**
 * The reader on the messages yangkit reads: small NETCONF messages (an `<ok/>` reply, a hello, a
 * 30 KiB pretty-printed get reply) and a large data document, as a tree, streamed, and as the
 * envelope scan of a large reply (its data content skipped). The XML readers this package replaced
 * ran beside it in the same run before they were deleted: the README has those figures.
 *
 * Times are CPU time of the process (`process.cpuUsage`), not wall time: on a shared machine the
 * load of other jobs would otherwise dominate. A small message is read 100 times per sample, so
 * that the cost of reading the clock stays small beside it.
 * `BENCH_INTERFACES` sets the entries of the large document (default 20,000).
 */
import { bench, describe } from 'vitest';
// The codec's benchmark document (a plain generator with no imports; no package dependency).
import { interfacesXml } from '../../yang-json-codec/bench/interfaces-document.ts';
import { readXml, readXmlDocument, streamXml, type XmlSink } from '../src/index.js';

const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';

const ok = `<rpc-reply message-id="101" xmlns="${NC}"><ok/></rpc-reply>`;
const hello = `<?xml version="1.0" encoding="UTF-8"?><hello xmlns="${NC}"><capabilities>${[
  'urn:ietf:params:netconf:base:1.0',
  'urn:ietf:params:netconf:base:1.1',
  'urn:ietf:params:netconf:capability:candidate:1.0',
  'urn:ietf:params:netconf:capability:confirmed-commit:1.1',
  'urn:ietf:params:netconf:capability:validate:1.1',
  'urn:ietf:params:netconf:capability:xpath:1.0',
  'urn:ietf:params:netconf:capability:notification:1.0',
  'urn:ietf:params:netconf:capability:with-defaults:1.0?basic-mode=explicit&amp;also-supported=report-all',
  'urn:ietf:params:xml:ns:yang:ietf-interfaces?module=ietf-interfaces&amp;revision=2018-02-20',
  'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring?module=ietf-netconf-monitoring&amp;revision=2010-10-04',
]
  .map((c) => `<capability>${c}</capability>`)
  .join('')}</capabilities><session-id>4</session-id></hello>`;

// A reply shaped like netconfd's: pretty-printed, namespaces on <rpc-reply>, about 40 KB.
const interfaces = Array.from(
  { length: 120 },
  (_, i) =>
    `      <interface>\n        <name>eth${i}</name>\n        <type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type>\n        <enabled>true</enabled>\n        <description>uplink &amp; test ${i}</description>\n      </interface>\n`,
).join('');
const getReply = `<?xml version="1.0" encoding="UTF-8"?>
<rpc-reply message-id="7" xmlns:nc="${NC}" xmlns="${NC}">
  <data>
    <interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces">
${interfaces}    </interfaces>
  </data>
</rpc-reply>`;

const COUNT = Number(process.env.BENCH_INTERFACES ?? 20_000);
const document = interfacesXml(COUNT);
const largeReply = `<rpc-reply message-id="1" xmlns="${NC}"><data>${document}</data></rpc-reply>`;
const mib = (Buffer.byteLength(largeReply) / 1024 / 1024).toFixed(1);
const limits = { maxSize: 256 * 1024 * 1024, maxElements: 64 * 1024 * 1024 };

/** Milliseconds of CPU time this process has used. */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
const small = { now: cpuNow, time: 1000 };
const big = { now: cpuNow, iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 };
const BATCH = 100;
/** `read` done {@link BATCH} times: one sample. */
const batch = (read: () => unknown) => () => {
  for (let i = 0; i < BATCH; i++) read();
};

/** Hands every element on and keeps nothing: the cost of reading alone. */
const streamAll: XmlSink = { open: () => 'stream', text() {}, close() {} };
/** What a NETCONF session does with a large reply: the envelope read, the data content skipped. */
const envelope: XmlSink = { open: (_e, depth) => (depth < 2 ? 'stream' : 'skip'), text() {}, close() {} };

for (const [what, text] of [
  [`<ok/> rpc-reply (${ok.length} B)`, ok],
  [`server <hello> (${hello.length} B)`, hello],
  [`pretty-printed get reply (${Math.round(getReply.length / 1024)} KiB)`, getReply],
] as const) {
  describe(`${what}, ${BATCH} reads`, () => {
    bench(
      'readXmlDocument',
      batch(() => readXmlDocument(text)),
      small,
    );
  });
}

describe(`a ${COUNT}-entry ${mib} MiB get reply`, () => {
  bench('readXml (element tree)', () => void readXml(largeReply, limits), big);
  bench(
    'streamXml (every element streamed, nothing kept)',
    () => streamXml(largeReply, streamAll, limits),
    big,
  );
  bench('streamXml (envelope, <data> content skipped)', () => streamXml(largeReply, envelope, limits), big);
});
