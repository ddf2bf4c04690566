/**
 * Modules the handler itself implements and that belong in the schema it is given:
 * ietf-restconf (errors, data, operations), ietf-restconf-monitoring (restconf-state),
 * ietf-yang-patch (RFC 8072 bodies) and ietf-yang-library (the backend's module list).
 */
export const RESTCONF_MODULES: readonly string[] = [
  'ietf-restconf',
  'ietf-restconf-monitoring',
  'ietf-yang-patch',
  'ietf-yang-library',
];
