import { GET_BULK_MODULE, GET_BULK_YANG } from './get-bulk-module.js';
import { METADATA_MODULE, METADATA_YANG } from './metadata-module.js';

/**
 * Modules the handler itself implements and that belong in the schema it is given:
 * ietf-restconf (errors, data, operations), ietf-restconf-monitoring (restconf-state),
 * ietf-yang-patch (RFC 8072 bodies) and ietf-yang-library (the backend's module list). The
 * modules of RFC 8650 subscriptions depend on the backend: see `subscriptionModules`.
 */
export const RESTCONF_MODULES: readonly string[] = [
  'ietf-restconf',
  'ietf-restconf-monitoring',
  'ietf-yang-patch',
  'ietf-yang-library',
];

/**
 * This project's own modules that the handler answers for: the spec's `get-bulk` operation and the
 * annotations of `with-etag` and `with-last-modified`. Give their texts to the schema loader's
 * `texts` and their names to its `modules`, beside {@link RESTCONF_MODULES}.
 */
export const YANGKIT_MODULES: readonly string[] = [GET_BULK_MODULE, METADATA_MODULE];

/** The YANG texts of {@link YANGKIT_MODULES}. */
export const YANGKIT_MODULE_TEXTS: readonly string[] = [GET_BULK_YANG, METADATA_YANG];
