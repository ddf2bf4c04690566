import { bench, describe } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, testServer } from '../test/helpers.js';
import { fillInterfaces, rawSession } from './interfaces.js';

/**
 * What a list's size costs: an edit of one leaf of one entry of an interface list of 1,000 and of 10,000
 * entries through an in-process NETCONF session (parsed, applied, validated, committed; no startup file,
 * so no fsync), a get-config of one entry named by an XPath key predicate (how a RESTCONF backend reads
 * the target of an edit), and a get-config of the whole list (server side: request in, reply bytes out).
 * Run with `npx vitest bench --run bench/list-scale.bench.ts`; the two sizes are measured in the same run.
 */
const SIZES = [1000, 10_000];

async function setup(n: number): Promise<NetconfServer> {
  const server = await testServer();
  await fillInterfaces(server, n);
  return server;
}

const servers = new Map<number, NetconfServer>();
for (const n of SIZES) servers.set(n, await setup(n));

let i = 0;
describe('edit-config of one leaf of one list entry', async () => {
  for (const n of SIZES) {
    const session = await client(servers.get(n)!);
    bench(`${n.toLocaleString('en')} entries`, async () => {
      const k = (i * 7919) % n;
      await session.editConfig({
        target: 'running',
        config: `<interfaces xmlns="${IF}"><interface><name>e${k}</name><description>edit ${i++}</description></interface></interfaces>`,
      });
    });
  }
});

describe('get-config of one entry by an XPath key predicate (server side)', () => {
  for (const n of SIZES) {
    const raw = rawSession(servers.get(n)!);
    let k = 0;
    bench(`${n.toLocaleString('en')} entries`, async () => {
      const name = `e${(k++ * 7919) % n}`;
      await raw(
        `<get-config><source><running/></source><filter type="xpath" xmlns:if="${IF}" select="/if:interfaces/if:interface[if:name='${name}']"/></get-config>`,
      );
    });
  }
});

describe('get-config of the whole list (server side)', () => {
  for (const n of SIZES) {
    const raw = rawSession(servers.get(n)!);
    bench(`${n.toLocaleString('en')} entries`, async () => {
      await raw('<get-config><source><running/></source></get-config>');
    });
  }
});
