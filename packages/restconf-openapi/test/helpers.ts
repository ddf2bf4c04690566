import path from 'node:path';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';

/** The RFC 8040 example modules the gateway serves. */
export const EXAMPLES_YANG = path.resolve(__dirname, '../../../yang/examples');
/** ietf-routing and the modules that augment it (ietf-interfaces and ietf-ip ship with yang-schema). */
export const FIXTURE_YANG = path.resolve(__dirname, 'fixtures/yang');

/** What every document needs: the errors and YANG Patch templates. */
const RESTCONF = ['ietf-restconf', 'ietf-yang-patch'];

/** The RFC 8040 example modules. */
export const EXAMPLE_MODULES = [
  'example-jukebox',
  'example-ops',
  'example-actions',
  'example-mod',
  'example-events',
];

/** A large real module set: interfaces, IP and routing with its IPv4 and IPv6 augments (router advertisements is a submodule of IPv6). */
export const ROUTING_MODULES = [
  'ietf-interfaces',
  'ietf-ip',
  'ietf-routing',
  'ietf-ipv4-unicast-routing',
  'ietf-ipv6-unicast-routing',
];

const cache = new Map<string, Promise<SchemaTree>>();

/** The compiled schema of `modules` (with ietf-restconf and ietf-yang-patch), once per test file. */
export function schemaOf(modules: readonly string[]): Promise<SchemaTree> {
  const key = modules.join(',');
  let tree = cache.get(key);
  if (tree === undefined) {
    tree = loadSchema({ paths: [EXAMPLES_YANG, FIXTURE_YANG], modules: [...modules, ...RESTCONF] });
    cache.set(key, tree);
  }
  return tree;
}
