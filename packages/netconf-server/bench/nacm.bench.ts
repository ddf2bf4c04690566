import { connectStream, duplexPair, type NetconfSession } from '@yangkit/netconf-client';
import { encodeXml } from '@yangkit/yang-json-codec';
import { bench, describe } from 'vitest';
import { readNacmConfig } from '../src/nacm/config.js';
import { readableTree } from '../src/nacm/read.js';
import { UserAccess } from '../src/nacm/rules.js';
import { NetconfServer } from '../src/server.js';
import { client, IF, testSchema } from '../test/helpers.js';
import { fillInterfaces } from './interfaces.js';

// The cost of NACM (RFC 8341) on reads and edits: the same requests on a server without the
// nacm option (the baseline), with it for a user a permit-all rule covers, and with it for a user
// whose rules hide one list entry and permit writes of the interfaces only.

const ENTRIES = 10_000;
const NACM = 'urn:ietf:params:xml:ns:yang:ietf-netconf-acm';
const RULES = `<nacm xmlns="${NACM}">
  <groups>
    <group><name>admin</name><user-name>alice</user-name></group>
    <group><name>operators</name><user-name>bob</user-name></group>
  </groups>
  <rule-list><name>operators</name><group>operators</group>
    <rule><name>hide-e5</name><path>/ietf-interfaces:interfaces/interface[name='e5']</path>
      <access-operations>read</access-operations><action>deny</action></rule>
    <rule><name>write-interfaces</name><path>/ietf-interfaces:interfaces</path>
      <access-operations>create update delete</access-operations><action>permit</action></rule>
  </rule-list>
  <rule-list><name>admin</name><group>admin</group>
    <rule><name>all</name><module-name>*</module-name><access-operations>*</access-operations><action>permit</action></rule>
  </rule-list>
</nacm>`;

async function serverWith(nacm: boolean): Promise<NetconfServer> {
  const schema = await testSchema();
  const server = await NetconfServer.create({ schema, nacm });
  await fillInterfaces(server, ENTRIES);
  const [a, b] = duplexPair();
  server.connect(a, { username: 'system' }, { recovery: true });
  const root = await connectStream(b);
  await root.editConfig({ target: 'running', config: RULES });
  return server;
}

const off = await client(await serverWith(false), 'bob');
const on = await serverWith(true);
const alice = await client(on, 'alice');
const bob = await client(on, 'bob');

/** Long enough runs that the 10,000-entry setup's garbage collection does not dominate. */
const OPTIONS = { time: 4000, warmupTime: 1000 };

let i = 0;
const edit = (session: NetconfSession) =>
  session.editConfig({
    target: 'running',
    config: `<interfaces xmlns="${IF}"><interface><name>e${i % 1000}</name><description>edit ${i++}</description></interface></interfaces>`,
  });

// Server side only, without a session: the read view NACM builds, against writing the reply.
const schema = await testSchema();
const running = on.running.tree;
const bobAccess = new UserAccess(schema, readNacmConfig(running), 'bob');

describe(`writing ${ENTRIES.toLocaleString('en')} interfaces as XML (server side)`, () => {
  bench(
    'without NACM (baseline)',
    () => {
      encodeXml(running);
    },
    OPTIONS,
  );
  bench(
    'with the read view of a user with an entry hidden',
    () => {
      encodeXml(readableTree(bobAccess, running));
    },
    OPTIONS,
  );
});

describe(`get-config of ${ENTRIES.toLocaleString('en')} interfaces`, () => {
  bench(
    'nacm off (baseline)',
    async () => {
      await off.getConfig({ source: 'running' });
    },
    OPTIONS,
  );
  bench(
    'nacm on, permit-all user',
    async () => {
      await alice.getConfig({ source: 'running' });
    },
    OPTIONS,
  );
  bench(
    'nacm on, user with an entry hidden',
    async () => {
      await bob.getConfig({ source: 'running' });
    },
    OPTIONS,
  );
});

describe('edit-config of one interface', () => {
  bench(
    'nacm off (baseline)',
    async () => {
      await edit(off);
    },
    OPTIONS,
  );
  bench(
    'nacm on, permit-all user',
    async () => {
      await edit(alice);
    },
    OPTIONS,
  );
  bench(
    'nacm on, user permitted by a path rule',
    async () => {
      await edit(bob);
    },
    OPTIONS,
  );
});
