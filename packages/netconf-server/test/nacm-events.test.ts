import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { duplexPair } from '../src/index.js';
import { NetconfServer } from '../src/server.js';
import { client } from './helpers.js';
import { JB, NACM, nacmSchema, SAMPLE } from './nacm-helpers.js';

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';

/** alice administers; carol may read everything but the playlists. */
const RULES = `<nacm xmlns="${NACM}">
  <groups>
    <group><name>admin</name><user-name>alice</user-name></group>
    <group><name>viewers</name><user-name>carol</user-name></group>
  </groups>
  <rule-list>
    <name>viewers</name>
    <group>viewers</group>
    <rule><name>hide-playlists</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/playlist</path>
      <access-operations>read</access-operations><action>deny</action></rule>
  </rule-list>
  <rule-list>
    <name>admin</name>
    <group>admin</group>
    <rule><name>permit-all</name><module-name>*</module-name><access-operations>*</access-operations><action>permit</action></rule>
  </rule-list>
</nacm>`;

const PLAYLIST = `<playlist><name>Mine</name><description>changed</description></playlist>`;
const ARTIST = `<library><artist><name>Nirvana</name></artist></library>`;
const jukebox = (inner: string) => `<jukebox xmlns="${JB}">${inner}</jukebox>`;

let server: NetconfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(): Promise<{ alice: NetconfSession; carol: NetconfSession }> {
  server = await NetconfServer.create({ schema: await nacmSchema(), nacm: true });
  const [a, b] = duplexPair();
  server.connect(a, { username: 'system' }, { recovery: true });
  const root = await connectStream(b);
  await root.editConfig({ target: 'running', config: SAMPLE + RULES });
  return { alice: await client(server, 'alice'), carol: await client(server, 'carol') };
}

/** The first netconf-config-change the session receives. */
async function firstConfigChange(session: NetconfSession): Promise<string> {
  for await (const n of session.notifications()) if (n.xml.includes('netconf-config-change')) return n.xml;
  throw new Error('stream ended');
}

test('a netconf-config-change keeps only the edits whose target the subscriber may read', async () => {
  const { alice, carol } = await setup();
  await carol.createSubscription();
  const change = firstConfigChange(carol);
  await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST + ARTIST) });
  const xml = await change;
  expect(xml).toContain("artist[jbox:name='Nirvana']");
  expect(xml).not.toContain('playlist');
});

test('a netconf-config-change naming only targets the subscriber may not read is not sent', async () => {
  const { alice, carol } = await setup();
  await carol.createSubscription();
  const change = firstConfigChange(carol);
  await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST) });
  await alice.editConfig({ target: 'running', config: jukebox(ARTIST) });
  const xml = await change;
  expect(xml).toContain('Nirvana');
  expect(xml).not.toContain('playlist');
});

test('a dynamic subscription to the NETCONF stream gets the event cut to what the receiver may read', async () => {
  const { alice, carol } = await setup();
  const reply = await carol.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`,
  );
  expect(reply.xml).toContain('<id');
  const change = firstConfigChange(carol);
  await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST) });
  await alice.editConfig({ target: 'running', config: jukebox(ARTIST) });
  const xml = await change;
  expect(xml).toContain('Nirvana');
  expect(xml).not.toContain('playlist');
});

test('an administrator gets every edit of a netconf-config-change', async () => {
  const { alice } = await setup();
  await alice.createSubscription();
  const change = firstConfigChange(alice);
  await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST + ARTIST) });
  const xml = await change;
  expect(xml).toContain('Nirvana');
  expect(xml).toContain("playlist[jbox:name='Mine']");
});
