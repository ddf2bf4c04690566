import { NETCONF_BASE_NS, NOTIFICATION_NS } from '@yangkit/netconf-client';
import { childElement, childElements, escapeXmlText, textOf, type XmlElement } from '@yangkit/xml';
import { finishInSlices, type Steps } from '@yangkit/yang-json-codec';
import { editConfigTreeSteps, type TestOption } from './config-edit.js';
import { copyConfigSteps, deleteStartupSteps } from './copy-config.js';
import { type DatastoreName, withState } from './datastore.js';
import {
  configEditsInSlices,
  decodeConfigSteps,
  type EditOperation,
  type ErrorOption,
} from './edit-config.js';
import { rpcError } from './errors.js';
import { editData, getData, NMDA_NS } from './nmda.js';
import type { EventFilter } from './notifications.js';
import {
  base,
  datastoreIn,
  filterOf,
  missing,
  readReply,
  wantedTops,
  withDefaultsOf,
} from './operation-args.js';
import type { ReplyContent } from './reply.js';
import { action, checkInput } from './rpc-dispatch.js';
import { DEFAULT_CONFIRM_TIMEOUT, type NetconfServer } from './server.js';
import { CLOSE_AFTER_REPLY, type ServerSession } from './session.js';
import { SN_NS } from './subscriptions.js';

const MON_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring';
const YANG_NS = 'urn:ietf:params:xml:ns:yang:1';

type Handler = (
  server: NetconfServer,
  session: ServerSession,
  op: XmlElement,
) => Promise<ReplyContent> | ReplyContent;

const handlers: Record<string, Handler> = {
  // RFC 6241 7.7
  async [`${NETCONF_BASE_NS}|get`](server, session, op) {
    const filter = filterOf(base(op, 'filter'));
    const withDefaults = withDefaultsOf(op);
    const state = await server.operationalState(session, wantedTops(server, filter));
    // From here to the hold, one synchronous run: the reply shares running's nodes.
    const tree = withState(server.running.tree, state);
    return readReply(server, session, server.running, tree, filter, { withDefaults });
  },
  // RFC 6241 7.1
  async [`${NETCONF_BASE_NS}|get-config`](server, session, op) {
    const filter = filterOf(base(op, 'filter'));
    const withDefaults = withDefaultsOf(op);
    return server.readAtTurn(datastoreIn(op, 'source') as DatastoreName, (datastore) =>
      readReply(server, session, datastore, datastore.tree, filter, { withDefaults }),
    );
  },
  // RFC 6241 7.2
  async [`${NETCONF_BASE_NS}|edit-config`](server, session, op) {
    const target = datastoreIn(op, 'target') as DatastoreName;
    const defaultOperationEl = base(op, 'default-operation');
    const defaultOperation = (
      defaultOperationEl ? textOf(defaultOperationEl).trim() : 'merge'
    ) as EditOperation;
    if (!['merge', 'replace', 'none'].includes(defaultOperation)) {
      throw rpcError(
        'invalid-value',
        `default-operation "${defaultOperation}" is not merge, replace or none`,
        { errorType: 'protocol', errorInfo: { 'bad-element': 'default-operation' } },
      );
    }
    const errorOption = (
      base(op, 'error-option') ? textOf(base(op, 'error-option')!).trim() : 'stop-on-error'
    ) as ErrorOption;
    if (!['stop-on-error', 'continue-on-error', 'rollback-on-error'].includes(errorOption)) {
      throw rpcError('invalid-value', `error-option "${errorOption}" is not known`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'error-option' },
      });
    }
    const testOption = (
      base(op, 'test-option') ? textOf(base(op, 'test-option')!).trim() : 'test-then-set'
    ) as TestOption;
    if (!['test-then-set', 'set', 'test-only'].includes(testOption)) {
      throw rpcError('invalid-value', `test-option "${testOption}" is not known`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'test-option' },
      });
    }
    const config = base(op, 'config');
    if (!config) {
      if (base(op, 'url'))
        throw rpcError('operation-not-supported', 'the :url capability is not supported', {
          errorType: 'protocol',
        });
      throw missing(op, 'config');
    }
    // Decoded in slices, then applied in slices with the candidate held (see
    // NetconfServer.reserveCandidate): a big edit does not hold the event loop, whichever datastore
    // it edits.
    const { content, edits } = await configEditsInSlices(
      server.schema,
      childElements(config),
      defaultOperation,
    );
    await server.reserveCandidate(() =>
      editConfigTreeSteps(server, session, target, edits, {
        defaultOperation,
        errorOption,
        testOption,
        tops: new Set(content.children.keys()),
      }),
    );
    return '<ok/>';
  },
  // RFC 6241 7.3
  async [`${NETCONF_BASE_NS}|copy-config`](server, session, op) {
    const target = datastoreIn(op, 'target') as DatastoreName;
    const source = datastoreIn(op, 'source', true);
    server.checkOffered(target);
    if (source === target)
      throw rpcError('invalid-value', 'source and target are the same datastore', { errorType: 'protocol' });
    // In slices with the candidate and the scratch tree held (see NetconfServer.reserveCandidate):
    // the source is read at its turn, as the checks are made, and stays as it is until the copy ends.
    await server.reserveCandidate(() =>
      copyConfigSteps(
        server,
        session,
        target,
        typeof source === 'string' ? source : decodeConfigSteps(server.schema, childElements(source)),
      ),
    );
    return '<ok/>';
  },
  // RFC 6241 7.4
  async [`${NETCONF_BASE_NS}|delete-config`](server, session, op) {
    const target = datastoreIn(op, 'target') as DatastoreName;
    if (target !== 'startup')
      throw rpcError('operation-failed', `the ${target} datastore cannot be deleted`, {
        errorType: 'protocol',
      });
    server.checkOffered(target);
    await server.reserveCandidate(() => deleteStartupSteps(server, session));
    return '<ok/>';
  },
  // RFC 6241 7.5
  async [`${NETCONF_BASE_NS}|lock`](server, session, op) {
    const target = datastoreIn(op, 'target') as DatastoreName;
    // The candidate at its turn: whether it holds uncommitted changes once the edits asked for
    // before have ended (they are not made to end at once).
    await server.readAtTurn(target, () => {
      const lock = server.locks.get(target);
      if (lock) {
        throw rpcError('lock-denied', `the ${target} datastore is locked by session ${lock.session}`, {
          errorType: 'protocol',
          errorInfo: { 'session-id': String(lock.session) },
        });
      }
      // RFC 6241 8.3.5.1: the candidate cannot be locked while it holds uncommitted changes.
      if (target === 'candidate' && server.candidateModified) {
        throw rpcError('lock-denied', 'the candidate holds uncommitted changes', {
          errorType: 'protocol',
          errorInfo: { 'session-id': '0' },
        });
      }
      server.locks.set(target, { session: session.id, time: new Date() });
    });
    return '<ok/>';
  },
  // RFC 6241 7.6
  async [`${NETCONF_BASE_NS}|unlock`](server, session, op) {
    const target = datastoreIn(op, 'target') as DatastoreName;
    server.checkOffered(target);
    const lock = server.locks.get(target);
    if (!lock || lock.session !== session.id) {
      throw rpcError(
        'operation-failed',
        lock
          ? `the ${target} lock is held by session ${lock.session}`
          : `the ${target} datastore is not locked`,
        {
          errorType: 'protocol',
          ...(lock ? { errorInfo: { 'session-id': String(lock.session) } } : {}),
        },
      );
    }
    server.locks.delete(target);
    if (target === 'candidate') await server.discardChangesDue();
    return '<ok/>';
  },
  // RFC 6241 7.8
  [`${NETCONF_BASE_NS}|close-session`](_server, session) {
    session.stopNotifications();
    throw CLOSE_AFTER_REPLY;
  },
  // RFC 6241 7.9
  [`${NETCONF_BASE_NS}|kill-session`](server, session, op) {
    const el = base(op, 'session-id');
    if (!el) throw missing(op, 'session-id');
    const id = Number(textOf(el).trim());
    if (!Number.isInteger(id) || id === session.id) {
      throw rpcError(
        'invalid-value',
        id === session.id ? 'a session cannot kill itself; use close-session' : 'session-id is not a number',
        { errorType: 'protocol', errorInfo: { 'bad-element': 'session-id' } },
      );
    }
    server.killSession(id, session);
    return '<ok/>';
  },
  // RFC 6241 8.3.4.1, 8.4
  async [`${NETCONF_BASE_NS}|commit`](server, session, op) {
    const confirmed = base(op, 'confirmed') !== undefined;
    const timeoutEl = base(op, 'confirm-timeout');
    const timeout = timeoutEl ? Number(textOf(timeoutEl).trim()) : DEFAULT_CONFIRM_TIMEOUT;
    if (!Number.isInteger(timeout) || timeout < 1 || timeout > 4294967295) {
      throw rpcError('invalid-value', 'confirm-timeout must be 1..4294967295 seconds', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'confirm-timeout' },
      });
    }
    const persist = base(op, 'persist');
    const persistId = base(op, 'persist-id');
    const params = {
      confirmed,
      timeout,
      ...(persist ? { persist: textOf(persist) } : {}),
      ...(persistId ? { persistId: textOf(persistId) } : {}),
    };
    await server.reserveCandidate(() => server.confirmedCommitSteps(session, params));
    return '<ok/>';
  },
  // RFC 6241 8.3.4.2
  async [`${NETCONF_BASE_NS}|discard-changes`](server, session) {
    await server.reserveCandidate(() => server.discardChangesOfSteps(session));
    return '<ok/>';
  },
  // RFC 6241 8.4.4.1
  async [`${NETCONF_BASE_NS}|cancel-commit`](server, session, op) {
    server.checkOffered('candidate');
    const persistId = base(op, 'persist-id');
    await server.reserveCandidate(() =>
      server.cancelCommitSteps(session, persistId ? textOf(persistId) : undefined),
    );
    return '<ok/>';
  },
  // RFC 6241 8.6.4.1
  async [`${NETCONF_BASE_NS}|validate`](server, _session, op) {
    const source = datastoreIn(op, 'source', true);
    if (typeof source === 'string') {
      server.checkOffered(source);
      // In slices, within a reservation: what changes a datastore either waits for its turn or makes
      // the work in progress (this validation) end first, so the tree stays as it was read.
      await server.reserveCandidate(() => server.validateAllSteps(server.datastore(source).tree));
    } else {
      // An inline <config> is the operation's own: decoded and validated in slices, nothing held.
      await finishInSlices(validateConfigSteps(server, childElements(source)));
    }
    return '<ok/>';
  },
  // RFC 6022 3.1
  [`${MON_NS}|get-schema`](server, _session, op) {
    const idEl = childElement(op, 'identifier', MON_NS);
    if (!idEl) throw missing(op, 'identifier');
    const identifier = textOf(idEl).trim();
    const version = childElement(op, 'version', MON_NS);
    const format = childElement(op, 'format', MON_NS);
    if (format) {
      const f = textOf(format).trim();
      const local = f.slice(f.indexOf(':') + 1);
      if (local !== 'yang')
        throw rpcError('invalid-value', `format "${f}" is not supported; only yang`, {
          errorType: 'protocol',
          errorInfo: { 'bad-element': 'format' },
        });
    }
    const wanted = version ? textOf(version).trim() : '';
    const texts: string[] = [];
    for (const m of server.schema.modules) {
      if (m.name === identifier && (wanted === '' || (m.revision ?? '') === wanted)) texts.push(m.source);
      for (const sub of m.submodules)
        if (sub.name === identifier && (wanted === '' || (sub.revision ?? '') === wanted))
          texts.push(sub.source);
    }
    if (texts.length === 0)
      throw rpcError('invalid-value', `no schema "${identifier}"${wanted ? ` revision ${wanted}` : ''}`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'identifier' },
      });
    if (texts.length > 1)
      throw rpcError('operation-failed', `several revisions of "${identifier}"; give a version`, {
        errorAppTag: 'data-not-unique',
      });
    return `<data xmlns="${MON_NS}">${escapeXmlText(texts[0]!)}</data>`;
  },
  // RFC 5277 2.1.1
  [`${NOTIFICATION_NS}|create-subscription`](server, session, op) {
    const stream = childElement(op, 'stream', NOTIFICATION_NS);
    if (stream && textOf(stream).trim() !== 'NETCONF') {
      throw rpcError('invalid-value', `no stream "${textOf(stream).trim()}"; this server has NETCONF`, {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'stream' },
      });
    }
    const filter = filterOf(childElement(op, 'filter', NOTIFICATION_NS));
    const time = (local: string): number | undefined => {
      const el = childElement(op, local, NOTIFICATION_NS);
      if (!el) return undefined;
      const ms = Date.parse(textOf(el).trim());
      if (Number.isNaN(ms))
        throw rpcError('bad-element', `${local} is not a date-and-time`, {
          errorType: 'protocol',
          errorInfo: { 'bad-element': local },
        });
      return ms;
    };
    const start = time('startTime');
    const stop = time('stopTime');
    if (stop !== undefined && start === undefined)
      throw rpcError('missing-element', 'stopTime needs startTime', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'startTime' },
      });
    if (start !== undefined && start > Date.now())
      throw rpcError('bad-element', 'startTime is in the future', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'startTime' },
      });
    if (start !== undefined && stop !== undefined && stop < start)
      throw rpcError('bad-element', 'stopTime is before startTime', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'stopTime' },
      });
    server.eventSubscriptions.subscribe(session, filter as EventFilter | undefined, start, stop);
    return '<ok/>';
  },
  [`${NMDA_NS}|get-data`]: (server, session, op) => getData(server, session, op),
  [`${NMDA_NS}|edit-data`]: (server, session, op) => editData(server, session, op),
  // RFC 8639 2.4.2, RFC 8641 4.4.1
  [`${SN_NS}|establish-subscription`]: (server, session, op) => dynamic(server).establish(session, op),
  // RFC 8639 2.4.3, RFC 8641 4.4.2
  [`${SN_NS}|modify-subscription`]: (server, session, op) =>
    dynamic(server).modify(session, subscriptionId(op), op),
  // RFC 8639 2.4.4
  [`${SN_NS}|delete-subscription`](server, session, op) {
    dynamic(server).remove(subscriptionId(op), session);
    return '<ok/>';
  },
  // RFC 8639 2.4.5
  [`${SN_NS}|kill-subscription`](server, session, op) {
    dynamic(server).remove(subscriptionId(op), session, true);
    return '<ok/>';
  },
  // RFC 7950 7.15.2
  [`${YANG_NS}|action`]: (server, session, op) => action(server, session, op),
};

function dynamic(server: NetconfServer): NetconfServer['dynamic'] {
  if (!server.schema.moduleByName('ietf-subscribed-notifications')?.implemented) {
    throw rpcError('operation-not-supported', 'ietf-subscribed-notifications is not implemented', {
      errorType: 'protocol',
    });
  }
  return server.dynamic;
}

function subscriptionId(op: XmlElement): number {
  const el = childElement(op, 'id', SN_NS);
  const id = el ? Number(textOf(el).trim()) : Number.NaN;
  if (!Number.isInteger(id))
    throw rpcError('missing-element', 'the subscription id is missing or not a number', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'id' },
    });
  return id;
}

/** RFC 8341 section 3.4.4: may the session run the operation? (Actions are checked on their node.) */
function checkExec(server: NetconfServer, session: ServerSession, op: XmlElement): void {
  const ns = op.ns;
  if (ns === YANG_NS) return;
  const module = server.schema.moduleByNamespace(ns)?.name;
  if (module === undefined) return;
  server.nacm!.checkRpc(session, module, op.local, server.schema.topLevel(module, op.local));
}

/**
 * Runs one operation of a session: the base operations, then the schema's rpcs with their
 * registered handlers (input checked against the schema first).
 */
export async function dispatchOperation(
  server: NetconfServer,
  session: ServerSession,
  op: XmlElement,
  _rpc: XmlElement,
): Promise<ReplyContent> {
  const ns = op.ns;
  if (server.nacm) checkExec(server, session, op);
  const handler = handlers[`${ns}|${op.local}`];
  if (handler) return handler(server, session, op);
  const module = server.schema.moduleByNamespace(ns);
  if (!module) {
    throw rpcError('unknown-namespace', `no module of the server has the namespace "${ns}"`, {
      errorType: 'protocol',
      errorInfo: { 'bad-element': op.local, 'bad-namespace': ns },
    });
  }
  const rpc = server.schema.topLevel(module.name, op.local);
  if (rpc?.kind !== 'rpc') {
    throw rpcError(
      'operation-not-supported',
      `"${module.name}:${op.local}" is not an operation of this server`,
      { errorType: 'protocol', errorInfo: { 'bad-element': op.local } },
    );
  }
  const run = server.rpcHandlers.get(`${module.name}:${op.local}`);
  if (!run)
    throw rpcError(
      'operation-not-supported',
      `no handler is registered for rpc "${module.name}:${op.local}"`,
      { errorType: 'protocol' },
    );
  checkInput(server, rpc, op);
  const output = await run(op, { session, server });
  return output ? output : '<ok/>';
}

/** An inline `<config>` decoded and validated, in steps. */
function* validateConfigSteps(server: NetconfServer, config: readonly XmlElement[]): Steps<void> {
  yield* server.validateAllSteps(yield* decodeConfigSteps(server.schema, config));
}
