import { type DataNode, diff, type InstanceTree, type PathStep, stepOf } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { emptyConfig } from '../src/datastore.js';
import { readNacmConfig } from '../src/nacm/config.js';
import { readableAlong, readableTree } from '../src/nacm/read.js';
import { UserAccess } from '../src/nacm/rules.js';
import { deniedWrite, deniedWriteSteps, statesAlong } from '../src/nacm/write.js';
import { APPENDIX_A, changesOf, dataOf, IF, JB, nacmSchema, names, SAMPLE, SEC } from './nacm-helpers.js';

let tree: SchemaTree;
beforeAll(async () => {
  tree = await nacmSchema();
});

const userAccess = (user: string, nacm = APPENDIX_A) =>
  new UserAccess(tree, readNacmConfig(dataOf(tree, nacm)), user);
const data = () => dataOf(tree, `${SAMPLE}${APPENDIX_A}`);

describe('data node read access (RFC 8341 section 3.4.5)', () => {
  test('admin reads everything, nacm included', () => {
    const all = names(data());
    expect(names(readableTree(userAccess('admin'), data()))).toEqual(all);
  });

  test('a user in no group reads all but the default-deny-all nodes', () => {
    const seen = names(readableTree(userAccess('nobody'), data()));
    expect(seen).toContain('example-jukebox:jukebox/playlist[Mine]');
    expect(seen).toContain('example-secrets:secrets/key');
    expect(seen.some((n) => n.startsWith('ietf-netconf-acm:nacm'))).toBe(false);
    expect(seen.some((n) => n.startsWith('example-secrets:vault'))).toBe(false);
  });

  test('a deny rule on a container hides the container and everything below it', () => {
    const seen = names(readableTree(userAccess('wilma'), data()));
    expect(seen.some((n) => n.startsWith('ietf-interfaces:interfaces'))).toBe(false);
    expect(seen).toContain('example-jukebox:jukebox/library/artist[Foo Fighters]');
  });

  test('with read-default deny only what a rule permits is read', () => {
    const nacm = APPENDIX_A.replace(
      '<read-default>permit</read-default>',
      '<read-default>deny</read-default>',
    );
    const seen = names(readableTree(userAccess('wilma', nacm), data()));
    expect(seen).toEqual([]);
  });

  test('a rule permits a node below an unreadable ancestor only if the ancestor is readable too', () => {
    const nacm = APPENDIX_A.replace(
      '<read-default>permit</read-default>',
      '<read-default>deny</read-default>',
    );
    const jukebox = `<rule-list xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><name>top</name><group>limited</group><rule><name>jb</name><module-name>example-jukebox</module-name><path>/example-jukebox:jukebox</path><access-operations>read</access-operations><action>permit</action></rule></rule-list>`;
    const withTop = nacm.replace('</nacm>', `${jukebox}</nacm>`);
    const seen = names(readableTree(userAccess('wilma', withTop), data()));
    expect(seen).toContain('example-jukebox:jukebox/library/artist[Foo Fighters]');
    expect(seen).toContain('example-jukebox:jukebox/playlist[Mine]');
  });

  test('a list entry predicate selects one entry', () => {
    const nacm = `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm">
      <groups><group><name>g</name><user-name>u</user-name></group></groups>
      <rule-list><name>l</name><group>g</group>
        <rule><name>r</name><path xmlns:if="${IF}">/if:interfaces/if:interface[if:name='eth0']</path>
          <access-operations>read</access-operations><action>deny</action></rule></rule-list></nacm>`;
    const seen = names(readableTree(userAccess('u', nacm), data()));
    expect(seen).toContain('ietf-interfaces:interfaces/interface[dummy]');
    expect(seen).not.toContain('ietf-interfaces:interfaces/interface[eth0]');
  });

  test('a readable subtree is shared with the datastore, unless a copy is asked for', () => {
    const root = data();
    const find = (r: typeof root) => [...r.children].find(([s]) => s.name === 'jukebox')?.[1][0];
    const jukebox = find(root);
    const shared = readableTree(userAccess('wilma'), root);
    const copy = readableTree(userAccess('wilma'), root, false);
    expect(find(shared)).toBe(jukebox);
    expect(find(copy)).not.toBe(jukebox);
    expect(names(copy)).toEqual(names(shared));
  });
});

/** The steps from the root to the first node found by following `names` (schema names) down `root`. */
function stepsTo(root: InstanceTree, ...names: string[]): PathStep[] {
  const steps: PathStep[] = [];
  let children = root.children;
  for (const name of names) {
    const node: DataNode | undefined = [...children].find(([s]) => s.name === name)?.[1][0];
    if (node === undefined) throw new Error(`no ${name} in the sample`);
    steps.push(stepOf(node));
    children = node.children ?? new Map();
  }
  return steps;
}

describe('read access along a path (RFC 8341 section 3.4.5)', () => {
  test('a node is readable along its path when the rules hide none of its ancestors', () => {
    expect(readableAlong(userAccess('wilma'), stepsTo(data(), 'jukebox', 'library', 'artist'))).toBe(true);
  });

  test('a node below a hidden container is not readable along its path', () => {
    expect(readableAlong(userAccess('wilma'), stepsTo(data(), 'interfaces'))).toBe(false);
    expect(readableAlong(userAccess('wilma'), stepsTo(data(), 'interfaces', 'interface'))).toBe(false);
  });
});

describe('data node write access (RFC 8341 section 3.4.5)', () => {
  const artist = `<jukebox xmlns="${JB}"><library><artist><name>Nirvana</name></artist></library></jukebox>`;
  const playlist = `<jukebox xmlns="${JB}"><playlist><name>New</name></playlist></jukebox>`;

  test('a permit rule allows creating nodes below its path', () => {
    expect(deniedWrite(userAccess('wilma'), changesOf(tree, SAMPLE, artist))).toBeUndefined();
  });

  test('write-default deny refuses a create no rule permits', () => {
    expect(deniedWrite(userAccess('wilma'), changesOf(tree, SAMPLE, playlist))).toEqual({
      access: 'create',
      path: '/example-jukebox:jukebox/playlist',
    });
  });

  test('an update of a leaf needs update access', () => {
    const edit = `<jukebox xmlns="${JB}"><playlist><name>Mine</name><description>new</description></playlist></jukebox>`;
    expect(deniedWrite(userAccess('wilma'), changesOf(tree, SAMPLE, edit))?.access).toBe('update');
    expect(deniedWrite(userAccess('andy'), changesOf(tree, SAMPLE, edit))).toBeUndefined();
  });

  test('deleting a subtree needs delete access on every node below it', () => {
    const nacm = `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>permit</write-default>
      <groups><group><name>g</name><user-name>u</user-name></group></groups>
      <rule-list><name>l</name><group>g</group>
        <rule><name>keep-artists</name><path>/example-jukebox:jukebox/library/artist</path>
          <access-operations>delete</access-operations><action>deny</action></rule></rule-list></nacm>`;
    const remove = `<jukebox xmlns="${JB}" xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0" nc:operation="delete"/>`;
    expect(deniedWrite(userAccess('u', nacm), changesOf(tree, SAMPLE, remove))).toEqual({
      access: 'delete',
      path: '/example-jukebox:jukebox/...artist',
    });
  });

  test('default-deny-write refuses writes even with write-default permit', () => {
    const nacm =
      '<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>permit</write-default></nacm>';
    const edit = `<secrets xmlns="${SEC}"><key>other</key></secrets>`;
    expect(deniedWrite(userAccess('u', nacm), changesOf(tree, SAMPLE, edit))?.access).toBe('update');
    expect(deniedWrite(userAccess('u', nacm), changesOf(tree, SAMPLE, playlist))).toBeUndefined();
  });

  test('the nacm configuration is writable only through a rule', () => {
    const nacm =
      '<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>permit</write-default></nacm>';
    const edit =
      '<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>deny</write-default></nacm>';
    expect(deniedWrite(userAccess('u', nacm), changesOf(tree, nacm, edit))?.path).toBe(
      '/ietf-netconf-acm:nacm/write-default',
    );
    expect(deniedWrite(userAccess('admin'), changesOf(tree, APPENDIX_A, edit))).toBeUndefined();
  });

  test('a replace needs delete access on the nodes it removes', () => {
    const replace = `<jukebox xmlns="${JB}" xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0" nc:operation="replace"><library><artist><name>Foo Fighters</name></artist></library></jukebox>`;
    const denied = deniedWrite(userAccess('wilma'), changesOf(tree, SAMPLE, replace));
    expect(denied).toEqual({ access: 'delete', path: '/example-jukebox:jukebox/playlist' });
  });

  test('emptying a datastore deletes each top-level node', () => {
    const changes = diff(dataOf(tree, SAMPLE), emptyConfig(tree));
    expect(changes.map((c) => c.op)).toEqual(['remove', 'remove', 'remove', 'remove']);
    expect(deniedWrite(userAccess('admin'), changes)).toBeUndefined();
    expect(deniedWrite(userAccess('wilma'), changes)?.access).toBe('delete');
  });

  test('the nodes below a removed subtree are judged a step every few dozen, the first denied one named', () => {
    const nacm = `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>permit</write-default>
      <groups><group><name>g</name><user-name>u</user-name></group></groups>
      <rule-list><name>l</name><group>g</group>
        <rule><name>keep-the-last</name><path>/example-jukebox:jukebox/library/artist[name='a999']</path>
          <access-operations>delete</access-operations><action>deny</action></rule></rule-list></nacm>`;
    const artists = Array.from({ length: 1_000 }, (_, i) => `<artist><name>a${i}</name></artist>`);
    const library = `<jukebox xmlns="${JB}"><library>${artists.join('')}</library></jukebox>`;
    // One change: the jukebox removed, with the 1,000 artists below it.
    const changes = diff(dataOf(tree, library), emptyConfig(tree));
    expect(changes.map((c) => c.op)).toEqual(['remove']);
    const steps = deniedWriteSteps(userAccess('u', nacm), changes);
    let yields = 0;
    let next = steps.next();
    for (; next.done !== true; next = steps.next()) yields++;
    expect(yields).toBeGreaterThan(2_000 / 64 - 1);
    expect(next.value).toEqual({ access: 'delete', path: '/example-jukebox:jukebox/...artist' });
  });

  test('a copy needs access only to the nodes that differ', () => {
    const added = SAMPLE.replace('<library>', '<library><artist><name>Nirvana</name></artist>');
    const changes = diff(dataOf(tree, SAMPLE), dataOf(tree, added));
    // A list entry is created with its keys.
    expect(changes.map((c) => `${c.op} ${c.path.map((s) => s.schema.name).join('/')}`)).toEqual([
      'create jukebox/library/artist',
    ]);
    expect(deniedWrite(userAccess('wilma'), changes)).toBeUndefined();
  });

  test('a copy that changes a leaf is an update of that leaf', () => {
    const changed = SAMPLE.replace('<description>mine</description>', '<description>yours</description>');
    const changes = diff(dataOf(tree, SAMPLE), dataOf(tree, changed));
    expect(changes.map((c) => c.op)).toEqual(['set']);
    expect(deniedWrite(userAccess('wilma'), changes)).toEqual({
      access: 'update',
      path: '/example-jukebox:jukebox/playlist/description',
    });
  });
});

describe('writes refused ahead of an edit (RFC 8341 section 3.4.5)', () => {
  const deniedWithin = (user: string, ...names: string[]) => {
    const access = userAccess(user);
    return access.writeDeniedWithin(statesAlong(access, stepsTo(data(), ...names)));
  };

  test('are refused where write-default denies and no rule permits a write at or below the target', () => {
    expect(deniedWithin('wilma', 'jukebox', 'playlist')).toBe(true);
    expect(deniedWithin('wilma', 'interfaces')).toBe(true);
  });

  test('go ahead where a permitting rule may match at or below the target', () => {
    expect(deniedWithin('wilma')).toBe(false);
    expect(deniedWithin('wilma', 'jukebox')).toBe(false);
    expect(deniedWithin('wilma', 'jukebox', 'library', 'artist')).toBe(false);
    expect(deniedWithin('guest', 'interfaces')).toBe(false);
  });

  test('are refused under a top-level node where no rule permits a write at or below it', () => {
    const jukebox = tree.topLevel('example-jukebox', 'jukebox')!;
    const interfaces = tree.topLevel('ietf-interfaces', 'interfaces')!;
    expect(userAccess('wilma').writeDeniedWithinTop(jukebox)).toBe(false);
    expect(userAccess('wilma').writeDeniedWithinTop(interfaces)).toBe(true);
    // guest may update one interface, and nothing of the jukebox.
    expect(userAccess('guest').writeDeniedWithinTop(interfaces)).toBe(false);
    expect(userAccess('guest').writeDeniedWithinTop(jukebox)).toBe(true);
    expect(userAccess('admin').writeDeniedWithinTop(jukebox)).toBe(false);
  });

  test('go ahead everywhere when write-default permits', () => {
    const nacm =
      '<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><write-default>permit</write-default></nacm>';
    const access = userAccess('u', nacm);
    expect(access.writeDeniedWithin(statesAlong(access, stepsTo(data(), 'jukebox', 'playlist')))).toBe(false);
  });
});
