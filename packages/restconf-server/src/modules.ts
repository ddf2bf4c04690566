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
