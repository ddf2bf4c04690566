import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { NetconfSession } from '@yangkit/netconf-client';
import { bench, describe } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, testServer } from '../test/helpers.js';
import { fillInterfaces, rawSession } from './interfaces.js';

const ENTRIES = 100_000;

async function setup(n: number): Promise<{ server: NetconfServer; session: NetconfSession }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ncs-bench-'));
  const server = await testServer({ startupFile: path.join(dir, 'startup.json') });
  if (n > 0) await fillInterfaces(server, n);
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

const small = await setup(1000);
const GET = `<get><filter type="subtree"><interfaces xmlns="${IF}"/></filter></get>`;
const smallSession = rawSession(small.server);
const fullSession = rawSession(full.server);
const getSmall = () => smallSession(GET);
const getFull = () => fullSession(GET);
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
