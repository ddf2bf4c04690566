import { readFileSync } from 'node:fs';
import path from 'node:path';
import { connectStream, type NetconfSession } from '@yangkit/netconf-client';
import { type ChildHolder, decodeXml, entryKey, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { type Change, createDatastore } from '../src/datastore.js';
import { applyEdits, configEdits, decodeConfig, type EditOperation } from '../src/edit-config.js';
import { duplexPair } from '../src/index.js';
import { loadServerSchema } from '../src/schema.js';
import type { NetconfServer } from '../src/server.js';
import { YANG_DIR } from './helpers.js';

/** A session of the server for itself: NACM does not restrict it (RFC 8341 section 3.4 step 2). */
export function recoverySession(server: NetconfServer): Promise<NetconfSession> {
  const [a, b] = duplexPair();
  server.connect(a, { username: 'system' }, { recovery: true });
  return connectStream(b);
}

/** A module marked with the RFC 8341 extensions. */
export const SECRETS_YANG = `module example-secrets {
  yang-version 1.1;
  namespace "urn:example:secrets";
  prefix sec;
  import ietf-netconf-acm { prefix nacm; }
  container secrets {
    nacm:default-deny-write;
    leaf key { type string; }
  }
  container vault {
    nacm:default-deny-all;
    leaf pin { type string; }
  }
  rpc wipe { nacm:default-deny-all; }
  notification alarm { nacm:default-deny-all; leaf text { type string; } }
}`;
export const SEC = 'urn:example:secrets';
export const JB = 'http://example.com/ns/example-jukebox';
export const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
export const NACM = 'urn:ietf:params:xml:ns:yang:ietf-netconf-acm';

/** The RFC 8341 Appendix A example, adapted to example-jukebox and ietf-interfaces. */
export const APPENDIX_A = readFileSync(path.resolve(__dirname, 'fixtures/nacm/appendix-a.xml'), 'utf8');

let cached: Promise<SchemaTree> | undefined;

/** The test schema plus example-secrets. */
export function nacmSchema(): Promise<SchemaTree> {
  cached ??= loadServerSchema({
    paths: [YANG_DIR],
    texts: [SECRETS_YANG],
    modules: [
      'example-jukebox',
      'ietf-interfaces',
      'iana-if-type',
      'example-ops',
      'example-actions',
      'example-secrets',
    ],
  });
  return cached;
}

/** Sample data: two interfaces, a library artist, a playlist, secrets and a vault. */
export const SAMPLE = `
<interfaces xmlns="${IF}">
  <interface><name>eth0</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type></interface>
  <interface><name>dummy</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type></interface>
</interfaces>
<jukebox xmlns="${JB}">
  <library><artist><name>Foo Fighters</name></artist></library>
  <playlist><name>Mine</name><description>mine</description></playlist>
</jukebox>
<secrets xmlns="${SEC}"><key>k</key></secrets>
<vault xmlns="${SEC}"><pin>1234</pin></vault>`;

/** A datastore tree holding `xml`. */
export function dataOf(tree: SchemaTree, xml: string): InstanceTree {
  return decodeXml(tree, xml, { kind: 'config' });
}

/** The changes an edit-config `config` makes to a copy of `xml`. */
export function changesOf(
  tree: SchemaTree,
  xml: string,
  config: string,
  defaultOperation: EditOperation = 'merge',
): readonly Change[] {
  const ds = createDatastore(tree, dataOf(tree, xml));
  applyEdits(tree, ds, configEdits(decodeConfig(tree, config), defaultOperation), 'stop-on-error');
  return ds.since(0);
}

/** The top-level and second-level names of a tree, as `module:name/name`. */
export function names(root: InstanceTree): string[] {
  const out: string[] = [];
  const walk = (n: ChildHolder, prefix: string, depth: number): void => {
    for (const nodes of n.children?.values() ?? []) {
      for (const c of nodes) {
        const name = prefix === '' ? `${c.schema.module}:${c.schema.name}` : `${prefix}/${c.schema.name}`;
        const key = entryKey(c);
        out.push(key === undefined ? name : `${name}[${key}]`);
        if (depth < 3) walk(c, key === undefined ? name : `${name}[${key}]`, depth + 1);
      }
    }
  };
  walk(root, '', 1);
  return out;
}
