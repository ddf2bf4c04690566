import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the `yang/` folder shipped with this package (ietf-restconf, ietf-yang-library,
 * ietf-netconf, ... : the modules a RESTCONF/NETCONF server itself implements). Loaders search it after
 * the caller's paths. The folder sits next to both `src/` and `dist/`.
 */
export const standardModulesDir: string = resolve(dirname(fileURLToPath(import.meta.url)), '../yang');
