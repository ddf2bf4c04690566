import { type LoadOptions, loadSchema, mergeFeatures, type SchemaTree } from '@yangkit/yang-schema';

/**
 * The modules the server itself implements (from yang-schema's standard modules): the NETCONF
 * protocol operations, monitoring and get-schema (RFC 6022), with-defaults (RFC 6243), the yang
 * library (RFC 8525, with the deprecated modules-state), base notifications (RFC 6470), RFC 5277
 * notifications, NMDA (RFC 8342, RFC 8526), RFC 8639/8641 subscriptions with the publisher ids of
 * draft-ietf-netconf-distributed-notif, access control (RFC 8341 NACM, enforced with the
 * server's `nacm` option).
 */
export const SERVER_MODULES: readonly string[] = [
  'ietf-netconf',
  'ietf-netconf-monitoring',
  'ietf-netconf-with-defaults',
  'ietf-yang-library',
  'ietf-netconf-notifications',
  'notifications',
  'nc-notifications',
  'ietf-datastores',
  'ietf-origin',
  'ietf-netconf-nmda',
  'ietf-subscribed-notifications',
  'ietf-yang-push',
  'ietf-distributed-notif',
  'ietf-netconf-acm',
];

/** The features of the server's own modules that it really supports. */
const SERVER_FEATURES = {
  'ietf-subscribed-notifications': ['encode-xml', 'replay', 'subtree', 'xpath'],
  'ietf-yang-push': ['on-change'],
} as const;

/**
 * Loads and compiles the application's modules together with {@link SERVER_MODULES}, e.g.
 * `loadServerSchema({ paths: ['yang'], modules: ['example-jukebox'] })`. `options.features` adds
 * to the features the server supports in its own modules (a RESTCONF layer that encodes
 * notifications as JSON itself adds `encode-json`).
 */
export function loadServerSchema(options: LoadOptions): Promise<SchemaTree> {
  const modules = [...options.modules];
  for (const m of SERVER_MODULES) if (!modules.includes(m)) modules.push(m);
  return loadSchema({ ...options, modules, features: mergeFeatures(SERVER_FEATURES, options.features) });
}
