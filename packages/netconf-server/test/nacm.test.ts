import { connectStream, type NetconfNotification, type NetconfSession } from '@yangkit/netconf-client';
import { afterEach, describe, expect, test } from 'vitest';
import { exampleHandlers } from '../src/example-handlers.js';
import { duplexPair } from '../src/index.js';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer } from '../src/server.js';
import { client, rpcErrorOf, YANG_DIR } from './helpers.js';
import { JB, NACM, nacmSchema, recoverySession, SAMPLE } from './nacm-helpers.js';

const OPS = 'https://example.com/ns/example-ops';

/** alice administers; bob may not write the library, read playlists nor reboot. */
const RULES = `<nacm xmlns="${NACM}">
  <groups>
    <group><name>admin</name><user-name>alice</user-name></group>
    <group><name>operators</name><user-name>bob</user-name></group>
  </groups>
  <rule-list>
    <name>operators</name>
    <group>operators</group>
    <rule><name>deny-library-writes</name><module-name>example-jukebox</module-name>
      <path xmlns:jbox="${JB}">/jbox:jukebox/jbox:library</path>
      <access-operations>create update delete</access-operations><action>deny</action></rule>
    <rule><name>hide-playlists</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/playlist</path>
      <access-operations>read</access-operations><action>deny</action></rule>
    <rule><name>no-reboot</name><module-name>example-ops</module-name><rpc-name>reboot</rpc-name>
      <access-operations>exec</access-operations><action>deny</action></rule>
    <rule><name>no-config-change-events</name><module-name>ietf-netconf-notifications</module-name>
      <notification-name>netconf-config-change</notification-name>
      <access-operations>read</access-operations><action>deny</action></rule>
    <rule><name>edit-jukebox</name><module-name>example-jukebox</module-name>
      <access-operations>create update delete</access-operations><action>permit</action></rule>
  </rule-list>
  <rule-list>
    <name>admin</name>
    <group>admin</group>
    <rule><name>permit-all</name><module-name>*</module-name><access-operations>*</access-operations><action>permit</action></rule>
  </rule-list>
</nacm>`;

let server: NetconfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  nacm = true,
): Promise<{ alice: NetconfSession; bob: NetconfSession; root: NetconfSession }> {
  server = await NetconfServer.create({ schema: await nacmSchema(), nacm });
  exampleHandlers(server, { onReboot: () => undefined });
  const root = await recoverySession(server);
  await root.editConfig({ target: 'running', config: SAMPLE + RULES });
  return { alice: await client(server, 'alice'), bob: await client(server, 'bob'), root };
}

const library = (artist: string) =>
  `<jukebox xmlns="${JB}"><library><artist><name>${artist}</name></artist></library></jukebox>`;

describe('NACM over NETCONF sessions', () => {
  test('reads omit what the user may not read, silently', async () => {
    const { alice, bob } = await setup();
    const mine = await bob.getConfig({ source: 'running' });
    expect(mine).toContain('Foo Fighters');
    expect(mine).not.toContain('<playlist>');
    expect(mine).not.toContain('<nacm');
    const all = await alice.getConfig({ source: 'running' });
    expect(all).toContain('<playlist>');
    expect(all).toContain('<nacm');
  });

  test('get, get-data and filters omit unreadable nodes too', async () => {
    const { bob } = await setup();
    expect(await bob.get({ filter: `<jukebox xmlns="${JB}"/>` })).not.toContain('playlist');
    const xpath = await bob.getConfig({
      source: 'running',
      filter: { xpath: '/jbox:jukebox/jbox:library/..//jbox:playlist', namespaces: { jbox: JB } },
    });
    expect(xpath).not.toContain('Mine');
    const data = await bob.getData({ datastore: 'running' });
    expect(data).toContain('Foo Fighters');
    expect(data).not.toContain('Mine');
  });

  test('a denied write answers access-denied and changes nothing', async () => {
    const { alice, bob } = await setup();
    const e = await rpcErrorOf(bob.editConfig({ target: 'running', config: library('Nirvana') }));
    expect(e.errors[0]).toMatchObject({ errorTag: 'access-denied', errorType: 'application' });
    expect(await alice.getConfig({ source: 'running' })).not.toContain('Nirvana');
  });

  test('a permitted write of another user succeeds', async () => {
    const { alice, bob } = await setup();
    await bob.editConfig({
      target: 'running',
      config: `<jukebox xmlns="${JB}"><player><gap>1.5</gap></player></jukebox>`,
    });
    await alice.editConfig({ target: 'running', config: library('Nirvana') });
    expect(await alice.getConfig({ source: 'running' })).toContain('<gap>1.5</gap>');
    expect(await alice.getConfig({ source: 'running' })).toContain('Nirvana');
  });

  test('a denied edit of the candidate is undone', async () => {
    const { bob } = await setup();
    const e = await rpcErrorOf(bob.editConfig({ target: 'candidate', config: library('Nirvana') }));
    expect(e.errors[0]!.errorTag).toBe('access-denied');
    expect(await bob.getConfig({ source: 'candidate' })).not.toContain('Nirvana');
  });

  test('copy-config needs write access to the nodes that differ only', async () => {
    const { bob, root } = await setup();
    const running = await root.getConfig({ source: 'running' });
    const config = running.replace(/^<data[^>]*>|<\/data>$/g, '');
    // The copy is the running configuration with one more node (a container appears once in it).
    const gap = config.replace('<library>', '<player><gap>1.5</gap></player><library>');
    await bob.copyConfig({ target: 'running', source: { config: gap } });
    expect(await root.getConfig({ source: 'running' })).toContain('<gap>1.5</gap>');
    const nirvana = config.replace('<library>', '<library><artist><name>Nirvana</name></artist>');
    const e = await rpcErrorOf(bob.copyConfig({ target: 'running', source: { config: nirvana } }));
    expect(e.errors[0]!.errorTag).toBe('access-denied');
  });

  test('a denied rpc answers access-denied with error-type protocol', async () => {
    const { alice, bob } = await setup();
    const e = await rpcErrorOf(bob.rpc(`<reboot xmlns="${OPS}"/>`));
    expect(e.errors[0]).toMatchObject({ errorTag: 'access-denied', errorType: 'protocol' });
    await alice.rpc(`<reboot xmlns="${OPS}"/>`);
  });

  test('a user in no group may not kill sessions nor write, by the defaults', async () => {
    const { bob } = await setup();
    const carol = await client(server!, 'carol');
    expect((await rpcErrorOf(carol.killSession(bob.sessionId))).errors[0]!.errorTag).toBe('access-denied');
    expect(
      (await rpcErrorOf(carol.editConfig({ target: 'running', config: library('X') }))).errors[0]!.errorTag,
    ).toBe('access-denied');
    expect(await carol.getConfig({ source: 'running' })).toContain('<playlist>');
  });

  test('notifications the user may not read are dropped from the stream', async () => {
    const { alice, bob } = await setup();
    await bob.createSubscription();
    const first = (async (): Promise<NetconfNotification> => {
      for await (const n of bob.notifications()) return n;
      throw new Error('stream ended');
    })();
    await alice.editConfig({ target: 'running', config: library('Nirvana') });
    await client(server!, 'dave');
    const n = await first;
    expect(n.xml).toContain('netconf-session-start');
    expect(n.xml).toContain('<username>dave</username>');
    expect(await alice.get({ filter: `<nacm xmlns="${NACM}"/>` })).toContain(
      '<denied-notifications>1</denied-notifications>',
    );
  });

  test('an action is checked for exec on its node', async () => {
    const { alice, bob, root } = await setup();
    const ACT = 'https://example.com/ns/example-actions';
    await root.editConfig({
      target: 'running',
      config: `<interfaces xmlns="${ACT}"><interface><name>eth0</name></interface></interfaces>`,
    });
    await root.editConfig({
      target: 'running',
      config: `<nacm xmlns="${NACM}"><rule-list><name>operators</name><rule><name>no-reset</name>
        <path>/example-actions:interfaces/interface/reset</path>
        <access-operations>exec</access-operations><action>deny</action></rule></rule-list></nacm>`,
    });
    const reset = `<action xmlns="urn:ietf:params:xml:ns:yang:1"><interfaces xmlns="${ACT}"><interface><name>eth0</name><reset><delay>0</delay></reset></interface></interfaces></action>`;
    expect((await rpcErrorOf(bob.rpc(reset))).errors[0]).toMatchObject({
      errorTag: 'access-denied',
      errorType: 'protocol',
    });
    expect((await alice.rpc(reset)).ok).toBe(true);
  });

  test('YANG Push updates hold only what the receiver may read', async () => {
    const { bob } = await setup();
    const updates = (async (): Promise<string> => {
      for await (const n of bob.notifications()) if (n.xml.includes('push-update')) return n.xml;
      throw new Error('stream ended');
    })();
    await bob.rpc(
      `<establish-subscription xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications" xmlns:yp="urn:ietf:params:xml:ns:yang:ietf-yang-push" xmlns:ds="urn:ietf:params:xml:ns:yang:ietf-datastores"><yp:datastore>ds:running</yp:datastore><yp:datastore-subtree-filter><jukebox xmlns="${JB}"/></yp:datastore-subtree-filter><yp:periodic><yp:period>10</yp:period></yp:periodic></establish-subscription>`,
    );
    const update = await updates;
    expect(update).toContain('Foo Fighters');
    expect(update).not.toContain('playlist');
  });

  test('the denied-* counters count refusals', async () => {
    const { alice, bob } = await setup();
    await rpcErrorOf(bob.rpc(`<reboot xmlns="${OPS}"/>`));
    await rpcErrorOf(bob.editConfig({ target: 'running', config: library('Nirvana') }));
    const state = await alice.get({ filter: `<nacm xmlns="${NACM}"/>` });
    expect(state).toContain('<denied-operations>1</denied-operations>');
    expect(state).toContain('<denied-data-writes>1</denied-data-writes>');
  });

  test('the nacm rules are writable only by a permitted user or a recovery session', async () => {
    const { alice, bob, root } = await setup();
    const open = `<nacm xmlns="${NACM}"><write-default>permit</write-default></nacm>`;
    expect((await rpcErrorOf(bob.editConfig({ target: 'running', config: open }))).errors[0]!.errorTag).toBe(
      'access-denied',
    );
    await alice.editConfig({ target: 'running', config: open });
    await root.editConfig({
      target: 'running',
      config: `<nacm xmlns="${NACM}"><read-default>permit</read-default></nacm>`,
    });
  });

  test('an edit of the rules takes effect on the next request', async () => {
    const { alice, bob } = await setup();
    await alice.editConfig({
      target: 'running',
      config: `<nacm xmlns="${NACM}"><enable-nacm>false</enable-nacm></nacm>`,
    });
    await bob.editConfig({ target: 'running', config: library('Nirvana') });
    expect(await bob.getConfig({ source: 'running' })).toContain('<playlist>');
  });

  test('without the nacm option nothing is enforced, the rules are kept', async () => {
    const { bob } = await setup(false);
    await bob.editConfig({ target: 'running', config: library('Nirvana') });
    const all = await bob.getConfig({ source: 'running' });
    expect(all).toContain('<playlist>');
    expect(all).toContain('<nacm');
  });
});

test('the README access control example works', async () => {
  const schema = await loadServerSchema({ paths: [YANG_DIR], modules: ['example-jukebox', 'example-ops'] });
  server = await NetconfServer.create({ schema, nacm: true });
  exampleHandlers(server);
  const system = await recoverySession(server);
  await system.editConfig({
    target: 'running',
    config: `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm">
    <groups><group><name>operators</name><user-name>bob</user-name></group></groups>
    <rule-list><name>operators</name><group>operators</group>
      <rule><name>no-reboot</name><module-name>example-ops</module-name><rpc-name>reboot</rpc-name>
        <access-operations>exec</access-operations><action>deny</action></rule>
      <rule><name>hide-playlists</name><path>/example-jukebox:jukebox/playlist</path>
        <access-operations>read</access-operations><action>deny</action></rule>
      <rule><name>edit-jukebox</name><module-name>example-jukebox</module-name>
        <access-operations>create update delete</access-operations><action>permit</action></rule>
    </rule-list></nacm>`,
  });
  const [c, d] = duplexPair();
  server.connect(c, { username: 'bob' });
  const bob = await connectStream(d);
  const e = await rpcErrorOf(bob.rpc('<reboot xmlns="https://example.com/ns/example-ops"/>'));
  expect(e.errors[0]!.errorTag).toBe('access-denied');
});
