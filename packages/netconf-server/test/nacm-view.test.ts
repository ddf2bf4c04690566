import { encodeXml, type InstanceTree, type TreeView } from '@yangkit/yang-json-codec';
import { afterEach, describe, expect, test } from 'vitest';
import { Access, DEFAULT_CONFIG, type NacmConfig, readNacmConfig } from '../src/nacm/config.js';
import { readableTree, readableTreeSteps, readFilter } from '../src/nacm/read.js';
import { UserAccess } from '../src/nacm/rules.js';
import { NMDA_NS } from '../src/nmda.js';
import { dataChunks } from '../src/operation-args.js';
import { loadServerSchema } from '../src/schema.js';
import { NetconfServer } from '../src/server.js';
import { client, YANG_DIR } from './helpers.js';
import { APPENDIX_A, dataOf, JB, NACM, nacmSchema, recoverySession, SAMPLE } from './nacm-helpers.js';

let server: NetconfServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('read access applied while a read is written (RFC 8341 section 3.4.5)', () => {
  test('writes what the readable copy writes, byte for byte, for every user of Appendix A and every view', async () => {
    const schema = await nacmSchema();
    const data = dataOf(schema, `${SAMPLE}${APPENDIX_A}`);
    const config = readNacmConfig(data);
    const views: TreeView[] = [{}, { content: 'config' }, { content: 'nonconfig' }, { depth: 3 }];
    for (const user of ['admin', 'andy', 'wilma', 'guest', 'nobody']) {
      const access = new UserAccess(schema, config, user);
      for (const view of views) {
        const copy = encodeXml(readableTree(access, data), { view });
        expect(
          encodeXml(data, { view: { ...view, filter: readFilter(access) } }),
          `${user} ${JSON.stringify(view)}`,
        ).toBe(copy);
      }
    }
  });

  test('writes what the readable copy writes, byte for byte, for rules that name list entries by key', async () => {
    const schema = await nacmSchema();
    const library = Array.from(
      { length: 40 },
      (_, i) => `<artist><name>a${i}</name><album><name>x${i}</name><year>2000</year></album></artist>`,
    ).join('');
    const data = dataOf(schema, SAMPLE.replace('<library>', `<library>${library}`));
    const artist = (key: string, action: string, readDefault = 'permit') =>
      `<read-default>${readDefault}</read-default>${operators(
        `<rule><name>${action}-${key}</name><path>/example-jukebox:jukebox/library/artist${key === '' ? '' : `[name='${key}']`}</path><access-operations>read</access-operations><action>${action}</action></rule>`,
      )}`;
    const ruleSets = [
      artist('a7', 'deny'),
      artist('absent', 'deny'),
      `<read-default>deny</read-default>${operators(
        `<rule><name>one</name><path>/example-jukebox:jukebox/library/artist[name='a7']</path><access-operations>read</access-operations><action>permit</action></rule>
         <rule><name>others</name><path>/example-jukebox:jukebox/library/artist</path><access-operations>read</access-operations><action>deny</action></rule>
         <rule><name>jukebox</name><path>/example-jukebox:jukebox</path><access-operations>read</access-operations><action>permit</action></rule>`,
      )}`,
      operators(
        `<rule><name>album</name><path>/example-jukebox:jukebox/library/artist[name='a3']/album[name='x3']</path><access-operations>read</access-operations><action>deny</action></rule>
         <rule><name>eth0</name><path>/ietf-interfaces:interfaces/interface[name='eth0']</path><access-operations>read</access-operations><action>deny</action></rule>`,
      ),
    ];
    const views: TreeView[] = [{}, { content: 'config' }, { content: 'nonconfig' }, { depth: 4 }];
    for (const rules of ruleSets) {
      const access = new UserAccess(
        schema,
        readNacmConfig(dataOf(schema, `<nacm xmlns="${NACM}">${rules}</nacm>`)),
        'bob',
      );
      for (const view of views) {
        const copy = encodeXml(readableTree(access, data), { view });
        expect(encodeXml(data, { view: { ...view, filter: readFilter(access) } }), rules).toBe(copy);
      }
    }
  });
});

/** bob's group and one rule-list of `rules` for it. */
const operators = (rules: string) =>
  `<groups><group><name>operators</name><user-name>bob</user-name></group></groups>
  <rule-list><name>operators</name><group>operators</group>${rules}</rule-list>`;

/** A list of two keys and a leaf-list, to name their entries in rules. */
const KEYS_YANG = `module example-keys {
  yang-version 1.1;
  namespace "urn:example:keys";
  prefix k;
  container routes {
    list route {
      key "prefix vrf";
      leaf prefix { type string; }
      leaf vrf { type string; }
      leaf note { type string; }
    }
    leaf-list tag { type string; }
  }
}`;

describe('the whole readable copy an XPath filter walks', () => {
  test('is made in steps where the rules restrict nothing, and holds what the one-turn copy holds', async () => {
    const schema = await nacmSchema();
    const library = Array.from(
      { length: 2000 },
      (_, i) => `<artist><name>a${i}</name><album><name>x${i}</name></album></artist>`,
    ).join('');
    const data = dataOf(schema, SAMPLE.replace('<library>', `<library>${library}`));
    // carol is in no group: no rule restricts what she reads of the jukebox
    const access = new UserAccess(schema, readNacmConfig(dataOf(schema, RULES)), 'carol');
    const steps = readableTreeSteps(access, data, false);
    let yields = 0;
    let next = steps.next();
    for (; next.done !== true; next = steps.next()) yields++;
    expect(yields).toBeGreaterThan(2000 / 64);
    const copy = next.value;
    expect(encodeXml(copy)).toBe(encodeXml(readableTree(access, data, false)));
    const jukebox = (tree: InstanceTree) => [...tree.children].find(([s]) => s.name === 'jukebox')![1][0];
    expect(jukebox(copy)).not.toBe(jukebox(data));
  });
});

describe('the entries that read rules name by key', () => {
  /** What `UserAccess.namedEntries` gives for `schemaName` below /routes when bob's rules have `paths`. */
  async function namedBelowRoutes(schemaName: string, ...paths: string[]) {
    const schema = await loadServerSchema({
      paths: [YANG_DIR],
      texts: [KEYS_YANG],
      modules: ['example-keys'],
    });
    const rules = paths.map((path, i) => ({
      name: `r${i}`,
      module: '*',
      type: { kind: 'data' as const, path },
      access: Access.read,
      permit: false,
    }));
    const config: NacmConfig = {
      ...DEFAULT_CONFIG,
      groups: new Map([['operators', ['bob']]]),
      ruleLists: [{ name: 'operators', groups: ['operators'], rules }],
    };
    const access = new UserAccess(schema, config, 'bob');
    const routes = schema.topLevel('example-keys', 'routes')!;
    const below = access.childStates(access.rootStates(), routes, '');
    return access.namedEntries(below, routes.dataChild('example-keys', schemaName)!);
  }

  test('names the entry a rule selects by the single key of its list, and none for a rule on every entry', async () => {
    const schema = await nacmSchema();
    const interfaces = schema.topLevel('ietf-interfaces', 'interfaces')!;
    const iface = interfaces.dataChild('ietf-interfaces', 'interface')!;
    const rules = (path: string) =>
      `${SAMPLE}<nacm xmlns="${NACM}">${operators(`<rule><name>r</name><path>${path}</path><access-operations>read</access-operations><action>deny</action></rule>`)}</nacm>`;
    for (const [path, named] of [
      ["/ietf-interfaces:interfaces/interface[name='eth0']", ['eth0']],
      ['/ietf-interfaces:interfaces/interface', []],
      ['/ietf-interfaces:interfaces/interface/enabled', []],
    ] as const) {
      const access = new UserAccess(schema, readNacmConfig(dataOf(schema, rules(path))), 'bob');
      const below = access.childStates(access.rootStates(), interfaces, '');
      expect(access.namedEntries(below, iface), path).toEqual(named);
    }
  });

  test('names an entry of a list of two keys by both, in key order, joined as the codec joins them', async () => {
    expect(await namedBelowRoutes('route', "/example-keys:routes/route[vrf='red'][prefix='10/8']")).toEqual([
      '10/8\u0000red',
    ]);
  });

  test('cannot say which entries are alike when a rule names entries by some of their keys only', async () => {
    expect(await namedBelowRoutes('route', "/example-keys:routes/route[vrf='red']")).toBeUndefined();
  });

  test('names a leaf-list entry by its value, and nothing for a predicate on a leaf that is not a key', async () => {
    expect(await namedBelowRoutes('tag', "/example-keys:routes/tag[.='gold']")).toEqual(['gold']);
    expect(await namedBelowRoutes('route', "/example-keys:routes/route[note='n']")).toEqual([]);
  });
});

/** bob may read the library, but no album of any artist, nor the playlists. */
const RULES = `<nacm xmlns="${NACM}">
  <groups><group><name>operators</name><user-name>bob</user-name></group></groups>
  <rule-list>
    <name>operators</name>
    <group>operators</group>
    <rule><name>hide-albums</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/library/artist/album</path>
      <access-operations>read</access-operations><action>deny</action></rule>
    <rule><name>hide-playlists</name><module-name>example-jukebox</module-name>
      <path>/example-jukebox:jukebox/playlist</path>
      <access-operations>read</access-operations><action>deny</action></rule>
  </rule-list>
</nacm>`;

async function serverWith(artists: number): Promise<NetconfServer> {
  server = await NetconfServer.create({ schema: await nacmSchema(), nacm: true });
  const root = await recoverySession(server);
  const library = Array.from(
    { length: artists },
    (_, i) => `<artist><name>a${i}</name><album><name>x${i}</name><year>2000</year></album></artist>`,
  ).join('');
  await root.editConfig({ target: 'running', config: SAMPLE + RULES });
  await root.editConfig({
    target: 'running',
    config: `<jukebox xmlns="${JB}"><library>${library}</library></jukebox>`,
  });
  return server;
}

describe('NACM-restricted reads written from the datastore', () => {
  test('get-config and get-data give the bytes of the readable copy', async () => {
    const s = await serverWith(20);
    const bob = await client(s, 'bob');
    const copy = [...dataChunks(await s.localSession('bob').read({ datastore: 'running' }), undefined)].join(
      '',
    );
    expect(copy).not.toContain('<album>');
    expect(`<data>${await bob.getConfig({ source: 'running' })}</data>`).toBe(copy);
    const nmda = [
      ...dataChunks(await s.localSession('bob').read({ datastore: 'running' }), undefined, NMDA_NS),
    ].join('');
    expect(await bob.getData({ datastore: 'running' })).toBe(
      nmda.slice(nmda.indexOf('>') + 1, -'</data>'.length),
    );
  });

  test("a shared read of a big list hands on the datastore's own nodes and writes the readable copy's bytes", async () => {
    const s = await serverWith(2000);
    const local = s.localSession('bob');
    const shared = await local.readShared();
    try {
      const own = (tree: InstanceTree) =>
        [...tree.children].find(([schema]) => schema.name === 'jukebox')![1][0];
      expect(own(shared.tree)).toBe(own(s.running.tree));
      expect(shared.filter).toBeDefined();
      const written = encodeXml(shared.tree, { view: { filter: shared.filter! } });
      expect(written).not.toContain('<album>');
      expect(written).toContain('<name>a1999</name>');
      expect(written).toBe(encodeXml(await local.read()));
    } finally {
      shared.release();
    }
  });

  test('a default is not written for a leaf the user may not read, with a filter or without (RFC 6243, RFC 8341 section 3.4.5)', async () => {
    server = await NetconfServer.create({ schema: await nacmSchema(), nacm: true });
    const root = await recoverySession(server);
    const hideEnabled = RULES.replace(
      '</rule-list>',
      `<rule><name>hide-enabled</name><module-name>ietf-interfaces</module-name><path>/ietf-interfaces:interfaces/interface/enabled</path><access-operations>read</access-operations><action>deny</action></rule></rule-list>`,
    );
    await root.editConfig({ target: 'running', config: SAMPLE + hideEnabled });
    const bob = await client(server, 'bob');
    const whole = await bob.getConfig({ source: 'running', withDefaults: 'report-all' });
    const filtered = await bob.getConfig({
      source: 'running',
      withDefaults: 'report-all',
      filter: { subtree: `<interfaces xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces"/>` },
    });
    for (const reply of [whole, filtered]) {
      expect(reply).toContain('<name>eth0</name>');
      expect(reply).not.toContain('<enabled>');
    }
    const admin = await client(server, 'admin');
    expect(await admin.getConfig({ source: 'running', withDefaults: 'report-all' })).toContain(
      '<enabled>true</enabled>',
    );
  });
});
