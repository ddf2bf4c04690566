import type { Capabilities, NetconfSession } from '@yangkit/netconf-client';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { Backend, BackendCapabilities, WriteAccessRequest } from '../backend.js';
import { RestconfError } from '../errors.js';
import { ChangeWatch } from './change-watch.js';
import { EditRunner } from './edit.js';
import { decodeOutput, invokeRpc } from './invoke.js';
import { exists, read } from './read.js';
import { type SessionFactory, Sessions, type SessionUse } from './sessions.js';
import { readStreamList } from './stream-list.js';
import { subscribe } from './subscribe.js';

export type { SessionFactory } from './sessions.js';

/** Options of {@link createNetconfBackend}. */
export interface NetconfBackendOptions {
  /** The schema of the server's modules (plus the handler's); replies are decoded with it. */
  readonly schema: SchemaTree;
  /** Where sessions come from. */
  readonly openSession: SessionFactory;
  /** Idle sessions kept for reuse (default 8). */
  readonly maxIdle?: number;
  /**
   * Subscribe once to the server's NETCONF event stream and report `netconf-config-change`
   * events of other clients through `onChange` (default true when the server has
   * `:notification`). A subscription lost with its server is made again by the next request
   * that reaches the server, which also reports one change of running (edits made meanwhile
   * went unseen).
   */
  readonly watchChanges?: boolean;
  /**
   * {@link Backend.deniesWrite} of a server whose access control the application can ask in
   * process (the embedded one); absent, edits are judged by the server as they are made.
   */
  readonly deniesWrite?: (request: WriteAccessRequest) => boolean;
}

function capabilitiesOf(caps: Capabilities, schema: SchemaTree, streams: BackendCapabilities['streams']) {
  const candidate = caps.protocol.has('candidate');
  return {
    candidate,
    confirmedCommit: candidate && caps.protocol.has('confirmed-commit'),
    startup: caps.protocol.has('startup'),
    xpath: caps.protocol.has('xpath'),
    // RFC 8526 section 2: the server announces ietf-netconf-nmda, directly or, with the
    // yang-library:1.1 capability, through a schema that implements it.
    nmda:
      caps.modules.some((m) => m.module === 'ietf-netconf-nmda') ||
      (caps.yangLibrary?.version === '1.1' && schema.moduleByName('ietf-netconf-nmda')?.implemented === true),
    streams,
  };
}

/**
 * The {@link Backend} of a NETCONF server (an external one over SSH, or an embedded one through
 * in-process sessions): each request runs on a session of its own from `openSession`, idle
 * sessions reused when a request left no state behind; each request writes its NETCONF RPCs and
 * decodes the reply once into a tree of `schema`.
 */
export function createNetconfBackend(options: NetconfBackendOptions): Backend {
  const { schema } = options;
  const sessions = new Sessions(options.openSession, options.maxIdle ?? 8);
  const listeners: ((datastore: string) => void)[] = [];
  const changed = (datastore: string): void => {
    for (const l of listeners) l(datastore);
  };
  const watch = new ChangeWatch(sessions, changed);
  const edits = new EditRunner(schema, sessions, changed);
  let capabilities: BackendCapabilities | undefined;

  function started(value: BackendCapabilities | undefined): BackendCapabilities {
    if (value === undefined) {
      throw new RestconfError('BACKEND_FAILED', 'the NETCONF backend has not started', {
        errorType: 'transport',
        errorTag: 'operation-failed',
        reason: 'unavailable',
      });
    }
    return value;
  }

  /** Runs `fn` on a session of the request's user (a lost change watch is made again first). */
  function use<T>(
    user: string | undefined,
    fn: (session: NetconfSession, use: SessionUse) => Promise<T>,
  ): Promise<T> {
    watch.resume();
    return sessions.use(user, fn);
  }

  return {
    schema,
    async start() {
      const s = await sessions.open();
      const notifications = s.capabilities.protocol.has('notification');
      const streams = notifications ? await readStreamList(s) : [];
      capabilities = capabilitiesOf(s.capabilities, schema, streams);
      sessions.keep(s);
      if ((options.watchChanges ?? true) && notifications) {
        // A server that refuses the subscription: tags move on this backend's own edits only.
        await watch.start().catch(() => undefined);
      }
    },
    get capabilities() {
      return started(capabilities);
    },
    read: (request) => use(request.user, (session) => read(session, schema, request)),
    exists: (request) => use(request.user, (session) => exists(session, schema, request)),
    ...(options.deniesWrite === undefined ? {} : { deniesWrite: options.deniesWrite }),
    edit(request) {
      watch.resume();
      return edits.edit(request, started(capabilities));
    },
    async invoke(request) {
      // An operation may take session state (a lock); it ends with the request (the spec: locks
      // are released when the request ends), so the session is not reused.
      const rpc = await invokeRpc(request);
      const reply = await use(request.user, (session, u) => {
        u.reusable = false;
        return session.rpc(rpc);
      });
      return decodeOutput(schema, request.operation, reply);
    },
    subscribe(request) {
      watch.resume();
      return subscribe(sessions, schema, request);
    },
    onChange(listener) {
      listeners.push(listener);
    },
    stats: () => sessions.stats(),
    async close() {
      await Promise.all([watch.close(), sessions.close()]);
    },
  };
}
