/**
 * Child process of persistence.test.ts: a server with a startup file, edited through a NETCONF
 * session; prints `ACK <n>` once edit n is acknowledged, until the parent kills it.
 */
import { connectStream, duplexPair } from '@yangkit/netconf-client';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer } from '../src/server.js';

const [startupFile, standardDir, yangDir] = process.argv.slice(2) as [string, string, string];
const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
const schema = await loadServerSchema({
  paths: [standardDir, yangDir],
  standardModules: false,
  modules: ['ietf-interfaces', 'iana-if-type'],
});
const server = await NetconfServer.create({ schema, startupFile, compactBytes: 8192 });
const [a, b] = duplexPair();
server.connect(a, { username: 'child' });
const session = await connectStream(b);
for (let i = 0; ; i++) {
  await session.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${IF}"><interface><name>e${i}</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type><description>edit ${i}</description></interface></interfaces>`,
  });
  process.stdout.write(`ACK ${i}\n`);
}
