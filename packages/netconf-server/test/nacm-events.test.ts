import type { NetconfSession } from '@yangkit/netconf-client';
import { afterEach, expect, test } from 'vitest';
import { NetconfServer } from '../src/server.js';
import { client } from './helpers.js';
import { JB, NACM, nacmSchema, recoverySession, SAMPLE } from './nacm-helpers.js';

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
  const root = await recoverySession(server);
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

/** Subscribes a session to the NETCONF stream by RFC 5277 or by RFC 8639. */
const SUBSCRIBE = {
  'create-subscription': async (session: NetconfSession) => {
    await session.createSubscription();
  },
  'establish-subscription': async (session: NetconfSession) => {
    const reply = await session.rpc(
      `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream></establish-subscription>`,
    );
    expect(reply.xml).toContain('<id');
  },
};

test.each(Object.keys(SUBSCRIBE) as (keyof typeof SUBSCRIBE)[])(
  'a netconf-config-change naming only targets the subscriber may not read is not sent (%s)',
  async (how) => {
    const { alice, carol } = await setup();
    await SUBSCRIBE[how](carol);
    const change = firstConfigChange(carol);
    await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST) });
    await alice.editConfig({ target: 'running', config: jukebox(ARTIST) });
    const xml = await change;
    expect(xml).toContain('Nirvana');
    expect(xml).not.toContain('playlist');
  },
);

test('an administrator gets every edit of a netconf-config-change', async () => {
  const { alice } = await setup();
  await alice.createSubscription();
  const change = firstConfigChange(alice);
  await alice.editConfig({ target: 'running', config: jukebox(PLAYLIST + ARTIST) });
  const xml = await change;
  expect(xml).toContain('Nirvana');
  expect(xml).toContain("playlist[jbox:name='Mine']");
});
