import type { QualifiedName } from '@yangkit/restconf-uri';
import type { DatastoreName } from '../backend.js';
import type { Settings } from '../context.js';
import { RestconfError } from '../errors.js';

/** One datastore resource `{root}/ds/ietf-datastores:<name>` as this server offers it. */
export interface NmdaDatastore {
  readonly name: DatastoreName;
  /** True for the configuration datastores `<edit-data>` can change (running, candidate). */
  readonly writable: boolean;
}

/** True for the datastores that carry the entity tag and timestamp of running (intended is its validated copy here). */
export function followsRunning(ds: NmdaDatastore): boolean {
  return ds.name === 'running' || ds.name === 'intended';
}

/**
 * True when `/ds` is served: `withNmda` is set and the backend implements NMDA, that is it
 * announces the ietf-netconf-nmda module (RFC 8526 section 2), directly or, with the RFC 8526
 * yang-library:1.1 capability, through a schema that implements it.
 */
export function nmdaAvailable(s: Settings): boolean {
  if (!s.withNmda) return false;
  try {
    return s.backend.capabilities.nmda;
  } catch {
    return false;
  }
}

/** The datastores the backend has: candidate and startup only with their NETCONF capabilities. */
export function nmdaDatastores(s: Settings): NmdaDatastore[] {
  const caps = s.backend.capabilities;
  const out: NmdaDatastore[] = [{ name: 'running', writable: true }];
  if (caps.candidate) out.push({ name: 'candidate', writable: true });
  if (caps.startup) out.push({ name: 'startup', writable: false });
  out.push({ name: 'intended', writable: false }, { name: 'operational', writable: false });
  return out;
}

/**
 * The datastore a `/ds/<module>:<name>` target names (RFC 8527 section 3.1: an identity derived
 * from `ietf-datastores:datastore`, written module-qualified).
 *
 * @throws {RestconfError} `NOT_FOUND` (404) for a datastore this server does not implement
 */
export function datastoreOf(s: Settings, identity: QualifiedName): NmdaDatastore {
  const found =
    identity.module === 'ietf-datastores'
      ? nmdaDatastores(s).find((d) => d.name === identity.name)
      : undefined;
  if (found === undefined) {
    throw new RestconfError('NOT_FOUND', `no datastore ${identity.module}:${identity.name} on this server`, {
      errorTag: 'invalid-value',
    });
  }
  return found;
}
