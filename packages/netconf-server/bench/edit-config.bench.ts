import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NetconfSession } from '@yangkit/netconf-client';
import { duplexPair } from '@yangkit/netconf-client';
import { bench, describe } from 'vitest';
import { single } from '../src/data-tree.js';
import type { NetconfServer } from '../src/server.js';
import { client, IF, testSchema, testServer } from '../test/helpers.js';

const ENTRIES = 100_000;

/** Fills running with `n` interfaces through the datastore API (one journaled transaction). */
async function fill(server: NetconfServer, n: number): Promise<void> {
  const schema = await testSchema();
  const interfaces = schema.find('/ietf-interfaces:interfaces')!;
  const iface = schema.find('/ietf-interfaces:interfaces/interface')!;
  const name = iface.dataChild('ietf-interfaces', 'name')!;
  const type = iface.dataChild('ietf-interfaces', 'type')!;
  server.transact(
    undefined,
    (ds) => {
      const top = single(ds.root, interfaces) ?? ds.create(ds.root, interfaces, '');
      for (let i = 0; i < n; i++) {
        const entry = ds.create(top, iface, `e${i}`);
        ds.create(entry, name, '', `e${i}`);
        ds.create(entry, type, '', 'iana-if-type:ethernetCsmacd');
      }
    },
    { validate: 'none' },
  );
}

async function setup(n: number): Promise<{ server: NetconfServer; session: NetconfSession }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncs-bench-'));
  const server = await testServer({ startupFile: path.join(dir, 'startup.json') });
  if (n > 0) await fill(server, n);
  return { server, session: await client(server) };
}

const empty = await setup(0);
const before = process.memoryUsage().heapUsed;
const full = await setup(ENTRIES);
const heapMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
console.log(`heap held by ${ENTRIES} interface entries (running + candidate): ${heapMiB.toFixed(1)} MiB`);

let i = 0;
const edit = (session: NetconfSession) =>
  session.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${IF}"><interface><name>e${i % 1000}</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type><description>edit ${i++}</description></interface></interfaces>`,
  });

describe('edit-config commit on running (validated, journaled and fsynced before the reply)', () => {
  bench('empty datastore', async () => {
    await edit(empty.session);
  });
  bench(`datastore holding ${ENTRIES.toLocaleString('en')} list entries`, async () => {
    await edit(full.session);
  });
});

/**
 * A raw base:1.0 session that counts reply bytes without parsing them, so the `<get>` figures are
 * the server's cost (a client's XML parsing of a 13 MB reply costs more than producing it).
 */
function rawGet(server: NetconfServer): () => Promise<number> {
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
  return () =>
    new Promise((resolve) => {
      waiting = resolve;
      b.write(
        `<rpc message-id="${++id}" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><get><filter type="subtree"><interfaces xmlns="${IF}"/></filter></get></rpc>]]>]]>`,
      );
    });
}

const small = await setup(1000);
const getSmall = rawGet(small.server);
const getFull = rawGet(full.server);
let peak = 0;
let size = 0;
describe('<get> of an interface list (server side: request in, reply bytes out)', () => {
  bench('1,000 entries', async () => {
    await getSmall();
  });
  bench(
    `${ENTRIES.toLocaleString('en')} entries`,
    async () => {
      const before = process.memoryUsage().heapUsed;
      size = await getFull();
      peak = Math.max(peak, (process.memoryUsage().heapUsed - before) / 2 ** 20);
    },
    {
      iterations: 10,
      teardown: () =>
        console.log(
          `<get> of ${ENTRIES} entries: ${(size / 2 ** 20).toFixed(1)} MiB of XML, heap growth up to ${peak.toFixed(1)} MiB`,
        ),
    },
  );
});
