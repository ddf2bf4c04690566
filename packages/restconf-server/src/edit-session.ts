import type { NetconfSession } from '@yangkit/netconf-client';
import type { QueryParameters } from '@yangkit/restconf-uri';
import type { Settings } from './context.js';
import { RestconfError } from './errors.js';

/** Serializes work on a shared resource (the candidate datastore) without blocking anything else. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `fn` after every earlier holder has finished. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

const candidateLocks = new WeakMap<object, Mutex>();

/**
 * Runs the `<edit-config>` documents of one request (DESIGN.md "Data flow"): on the candidate
 * datastore and then `<commit>` (confirmed when the query asks) when the backend has `:candidate`,
 * else directly on running. The candidate is shared by every session of the backend, so requests
 * of this handler take turns on it for exactly the edit+commit; on any failure the candidate
 * changes are discarded, so a request leaves nothing behind.
 *
 * `check` runs first inside the turn (the preconditions of conditional requests).
 */
export async function runEdits(
  s: Settings,
  query: QueryParameters,
  body: (session: NetconfSession, target: 'candidate' | 'running') => Promise<void>,
  check?: () => void,
  user?: string,
): Promise<void> {
  const candidate = s.backend.capabilities.candidate;
  if (!candidate) {
    if (query.confirmed) {
      throw new RestconfError('OPERATION_NOT_SUPPORTED', 'confirmed commit needs a backend with :candidate', {
        errorTag: 'operation-not-supported',
        status: 400,
      });
    }
    check?.();
    await s.backend.legacy.withSession((session) => body(session, 'running'), user);
    s.clock.changed();
    return;
  }
  let mutex = candidateLocks.get(s.backend);
  if (mutex === undefined) candidateLocks.set(s.backend, (mutex = new Mutex()));
  await mutex.run(() =>
    s.backend.legacy.withSession(async (session, use) => {
      check?.();
      try {
        await body(session, 'candidate');
        await session.commit({
          ...(query.confirmed ? { confirmed: true } : {}),
          ...(query.confirmTimeout === undefined ? {} : { confirmTimeout: query.confirmTimeout }),
          ...(query.persist === undefined ? {} : { persist: query.persist }),
        });
      } catch (error) {
        try {
          await session.discardChanges();
        } catch {
          use.reusable = false;
        }
        throw error;
      }
      s.clock.changed();
    }, user),
  );
}

/** `<edit-config>` of one `<config>` document (as yang-patch's toEditConfig writes it). */
export async function editConfig(
  session: NetconfSession,
  target: 'candidate' | 'running',
  config: string,
  defaultOperation?: 'merge' | 'replace' | 'none',
): Promise<void> {
  const op =
    defaultOperation === undefined ? '' : `<default-operation>${defaultOperation}</default-operation>`;
  await session.rpc(`<edit-config><target><${target}/></target>${op}${config}</edit-config>`);
}
