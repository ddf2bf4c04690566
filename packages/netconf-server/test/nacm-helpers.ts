import { readFileSync } from 'node:fs';
import path from 'node:path';
import { childElements, readXmlDocument } from '@yangkit/xml';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { DataNode } from '../src/data-tree.js';
import { type Change, Datastore } from '../src/datastore.js';
import { applyEdit, type EditOperation } from '../src/edit-config.js';
import { parseData } from '../src/parse-data.js';
import { loadServerSchema } from '../src/schema.js';
import { YANG_DIR } from './helpers.js';

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

/** A datastore root holding `xml`. */
export function dataOf(tree: SchemaTree, xml: string): DataNode {
  return parseData(tree, xml);
}

/** The changes an edit-config `config` makes to a copy of `xml`. */
export function changesOf(
  tree: SchemaTree,
  xml: string,
  config: string,
  defaultOperation: EditOperation = 'merge',
): readonly Change[] {
  const ds = new Datastore(parseData(tree, xml));
  applyEdit(tree, ds, childElements(readXmlDocument(`<config>${config}</config>`)), {
    defaultOperation,
    errorOption: 'stop-on-error',
  });
  return ds.changesSince(0);
}

/** The top-level and second-level names of a tree, as `module:name/name`. */
export function names(root: DataNode): string[] {
  const out: string[] = [];
  const walk = (n: DataNode, prefix: string, depth: number): void => {
    for (const slot of n.kids?.values() ?? []) {
      for (const c of slot instanceof Map ? slot.values() : [slot]) {
        const name = prefix === '' ? `${c.schema!.module}:${c.schema!.name}` : `${prefix}/${c.schema!.name}`;
        out.push(c.key === '' ? name : `${name}[${c.key}]`);
        if (depth < 3) walk(c, c.key === '' ? name : `${name}[${c.key}]`, depth + 1);
      }
    }
  };
  walk(root, '', 1);
  return out;
}
