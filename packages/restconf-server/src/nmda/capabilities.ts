import type { Settings } from '../context.js';
import { nmdaAvailable } from './datastores.js';

const BASE = 'urn:ietf:params:restconf:capability:';

/**
 * The RESTCONF capabilities RFC 8527 adds (section 3.2.1 `with-operational-defaults`, section
 * 3.2.2 `with-origin`), listed in restconf-state only while `/ds` is served.
 */
export function nmdaCapabilities(s: Settings): string[] {
  if (!nmdaAvailable(s)) return [];
  return [`${BASE}with-operational-defaults:1.0`, `${BASE}with-origin:1.0`];
}
