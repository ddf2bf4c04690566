import type { Duplex } from 'node:stream';
import { childElement, textOf } from '@yangkit/xml';
import { NetconfError } from './errors.js';
import {
  buildCancelCommit,
  buildCommit,
  buildCopyConfig,
  buildCreateSubscription,
  buildDeleteConfig,
  buildEditConfig,
  buildEditData,
  buildEndSubscription,
  buildEstablishSubscription,
  buildGet,
  buildGetConfig,
  buildGetData,
  buildGetSchema,
  buildKillSession,
  buildLock,
  buildModifySubscription,
  buildUnlock,
  buildValidate,
  type CommitOptions,
  type ConfigTarget,
  type CreateSubscriptionOptions,
  type Datastore,
  type EditConfigOptions,
  type EstablishSubscriptionOptions,
  type Filter,
  type GetDataOptions,
  type WithDefaultsMode,
} from './operations.js';
import { replyDataXml } from './reply.js';
import { NetconfSessionCore, type RpcOptions, type RpcReply, type SessionOptions } from './session.js';

/**
 * A NETCONF session with typed operations. Data retrievals resolve with the content of `<data>`
 * as XML (namespaces kept); other operations resolve with the {@link RpcReply} (`ok: true` for
 * `<ok/>`). Every `<rpc-error>` reply rejects with `NetconfRpcError`.
 */
export class NetconfSession extends NetconfSessionCore {
  /** `<get>` (RFC 6241 section 7.7): running config and state. */
  async get(
    options: { filter?: Filter; withDefaults?: WithDefaultsMode } = {},
    rpc?: RpcOptions,
  ): Promise<string> {
    return dataOf(await this.rpc(buildGet(options), rpc));
  }

  /** `<get-config>` (RFC 6241 section 7.1). */
  async getConfig(
    options: { source: Datastore; filter?: Filter; withDefaults?: WithDefaultsMode },
    rpc?: RpcOptions,
  ): Promise<string> {
    return dataOf(await this.rpc(buildGetConfig(options), rpc));
  }

  /** `<edit-config>` (RFC 6241 section 7.2). */
  editConfig(options: EditConfigOptions, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildEditConfig(options), rpc);
  }

  /** `<copy-config>` (RFC 6241 section 7.3). */
  copyConfig(
    options: {
      target: ConfigTarget;
      source: ConfigTarget | { config: string };
      withDefaults?: WithDefaultsMode;
    },
    rpc?: RpcOptions,
  ): Promise<RpcReply> {
    return this.rpc(buildCopyConfig(options), rpc);
  }

  /** `<delete-config>` (RFC 6241 section 7.4). */
  deleteConfig(options: { target: ConfigTarget }, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildDeleteConfig(options), rpc);
  }

  /** `<lock>` (RFC 6241 section 7.5); the lock is released when this session ends. */
  lock(options: { target: Datastore }, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildLock(options), rpc);
  }

  /** `<unlock>` (RFC 6241 section 7.6). */
  unlock(options: { target: Datastore }, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildUnlock(options), rpc);
  }

  /** `<commit>` (RFC 6241 sections 8.3, 8.4), plain or confirmed. */
  commit(options: CommitOptions = {}, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildCommit(options), rpc);
  }

  /** `<cancel-commit>` (RFC 6241 section 8.4.4.1). */
  cancelCommit(options: { persistId?: string } = {}, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildCancelCommit(options), rpc);
  }

  /** `<discard-changes>` (RFC 6241 section 8.3.4.2). */
  discardChanges(rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc('<discard-changes/>', rpc);
  }

  /** `<validate>` (RFC 6241 section 8.6.4.1). */
  validate(options: { source: ConfigTarget | { config: string } }, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildValidate(options), rpc);
  }

  /** `<kill-session>` (RFC 6241 section 7.9): ends another session, releasing its locks. */
  killSession(sessionId: number, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildKillSession(sessionId), rpc);
  }

  /** `<get-schema>` (RFC 6022 section 3.1): resolves with the schema text (YANG by default). */
  async getSchema(
    options: { identifier: string; version?: string; format?: string },
    rpc?: RpcOptions,
  ): Promise<string> {
    const reply = await this.rpc(buildGetSchema(options), rpc);
    const data = childElement(reply.element, 'data');
    if (data === undefined) throw new NetconfError('MALFORMED_REPLY', '<get-schema> reply without <data>');
    return textOf(data);
  }

  /** `<get-data>` (RFC 8526 section 3.1.1) from an NMDA datastore. */
  async getData(options: GetDataOptions, rpc?: RpcOptions): Promise<string> {
    return dataOf(await this.rpc(buildGetData(options), rpc));
  }

  /** `<edit-data>` (RFC 8526 section 3.2.1). */
  editData(
    options: { datastore: string; config: string; defaultOperation?: 'merge' | 'replace' | 'none' },
    rpc?: RpcOptions,
  ): Promise<RpcReply> {
    return this.rpc(buildEditData(options), rpc);
  }

  /**
   * `<create-subscription>` (RFC 5277 section 2.1.1). Notifications then arrive through
   * `notifications()` and the `notification` event.
   */
  createSubscription(options: CreateSubscriptionOptions = {}, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildCreateSubscription(options), rpc);
  }

  /** `<establish-subscription>` (RFC 8639 section 2.4.2): resolves with the subscription id. */
  async establishSubscription(
    options: EstablishSubscriptionOptions,
    rpc?: RpcOptions,
  ): Promise<{ id: number; replayStartTimeRevision?: string; reply: RpcReply }> {
    const reply = await this.rpc(buildEstablishSubscription(options), rpc);
    const idEl = childElement(reply.element, 'id');
    const id = idEl === undefined ? Number.NaN : Number(textOf(idEl).trim());
    if (!Number.isInteger(id))
      throw new NetconfError('MALFORMED_REPLY', '<establish-subscription> reply without <id>');
    const revision = childElement(reply.element, 'replay-start-time-revision');
    return revision === undefined
      ? { id, reply }
      : { id, replayStartTimeRevision: textOf(revision).trim(), reply };
  }

  /** `<modify-subscription>` (RFC 8639 section 2.4.3). */
  modifySubscription(
    options: { id: number; filter?: Filter | { name: string }; stopTime?: string; extra?: string },
    rpc?: RpcOptions,
  ): Promise<RpcReply> {
    return this.rpc(buildModifySubscription(options), rpc);
  }

  /** `<delete-subscription>` (RFC 8639 section 2.4.4): ends a subscription of this session. */
  deleteSubscription(id: number, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildEndSubscription('delete', id), rpc);
  }

  /** `<kill-subscription>` (RFC 8639 section 2.4.5): ends a subscription of any session. */
  killSubscription(id: number, rpc?: RpcOptions): Promise<RpcReply> {
    return this.rpc(buildEndSubscription('kill', id), rpc);
  }
}

function dataOf(reply: RpcReply): string {
  const xml = replyDataXml(reply);
  if (xml === undefined) throw new NetconfError('MALFORMED_REPLY', 'reply without <data>');
  return xml;
}

/**
 * Runs a NETCONF session over any duplex byte stream (an in-process server, a TCP socket, a
 * channel): sends the client hello and resolves once the server hello has been checked. On
 * failure the stream is destroyed.
 */
export async function connectStream(stream: Duplex, options: SessionOptions = {}): Promise<NetconfSession> {
  const session = new NetconfSession(stream, options);
  try {
    await session.ready;
  } catch (error) {
    session.destroy();
    throw error;
  }
  return session;
}
