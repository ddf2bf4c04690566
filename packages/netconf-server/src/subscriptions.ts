import {
  childElement,
  childElements,
  NOTIFICATION_NS,
  textOf,
  type XmlElement,
} from '@yangkit/netconf-client';
import type { DataNode } from './data-tree.js';
import { rpcError } from './errors.js';
import { subtreeFilter, xpathFilter } from './filter.js';
import { type EventFilter, eventTimeOf, type LoggedEvent, writeEvent } from './notifications.js';
import type { NetconfServer } from './server.js';
import type { ServerSession } from './session.js';
import { type Selected, selectAll, writeSelection } from './write-xml.js';

/** ietf-subscribed-notifications namespace (RFC 8639). */
export const SN_NS = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
/** ietf-yang-push namespace (RFC 8641). */
export const YP_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const DS_NS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

type Selection =
  | { readonly subtree: readonly XmlElement[] }
  | { readonly xpath: string; readonly scope: ReadonlyMap<string, string> }
  | undefined;

interface Dynamic {
  readonly id: number;
  readonly session: ServerSession;
  readonly kind: 'stream' | 'datastore';
  readonly filter: Selection;
  readonly datastore: 'running' | 'operational';
  readonly periodMs: number | undefined;
  readonly dampeningMs: number;
  readonly timers: NodeJS.Timeout[];
  /** on-change: the last content sent, to tell whether a commit changed the selection. */
  last: string | undefined;
  pending: boolean;
  replaying: boolean;
  readonly queued: LoggedEvent[];
}

function notification(inner: string): string {
  return `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${eventTimeOf(Date.now())}</eventTime>${inner}</notification>`;
}

/**
 * RFC 8639 dynamic subscriptions and RFC 8641 YANG Push: establish-subscription to the NETCONF
 * stream (filters, replay-start-time, stop-time) or to a datastore (running or operational) with a
 * periodic or an on-change (dampened) update trigger; delete-subscription and kill-subscription.
 */
export class DynamicSubscriptions {
  private readonly subs = new Map<number, Dynamic>();
  private nextId = 1;

  constructor(private readonly server: NetconfServer) {}

  /** RFC 8639 2.4.2 establish-subscription; resolves with the reply content (`<id>`). */
  async establish(session: ServerSession, op: XmlElement): Promise<string> {
    const sn = (local: string): XmlElement | undefined => childElement(op, local, SN_NS);
    const yp = (local: string): XmlElement | undefined => childElement(op, local, YP_NS);
    const stopEl = sn('stop-time');
    const stop = stopEl ? Date.parse(textOf(stopEl).trim()) : undefined;
    const id = this.nextId++;
    if (yp('datastore')) {
      const dsText = textOf(yp('datastore')!).trim();
      const colon = dsText.indexOf(':');
      const ns = yp('datastore')!.scope.get(colon === -1 ? '' : dsText.slice(0, colon));
      const name = dsText.slice(colon + 1);
      if (ns !== DS_NS || (name !== 'running' && name !== 'operational')) {
        throw rpcError(
          'invalid-value',
          `datastore "${dsText}" cannot be subscribed to; running and operational can`,
          { errorAppTag: 'ietf-yang-push:datastore-not-subscribable' },
        );
      }
      const subtree = yp('datastore-subtree-filter');
      const xpath = yp('datastore-xpath-filter');
      const filter: Selection = subtree
        ? { subtree: childElements(subtree) }
        : xpath
          ? { xpath: textOf(xpath).trim(), scope: xpath.scope }
          : undefined;
      const periodic = yp('periodic');
      const onChange = yp('on-change');
      if (!periodic && !onChange)
        throw rpcError('missing-element', 'a datastore subscription needs periodic or on-change', {
          errorType: 'protocol',
          errorInfo: { 'bad-element': 'update-trigger' },
        });
      const period = periodic
        ? Number(textOf(childElement(periodic, 'period', YP_NS) ?? periodic).trim())
        : undefined;
      if (periodic && (!Number.isInteger(period) || period! < 1)) {
        throw rpcError('invalid-value', 'period is a positive number of centiseconds', {
          errorAppTag: 'ietf-yang-push:period-unsupported',
        });
      }
      const dampEl = onChange ? childElement(onChange, 'dampening-period', YP_NS) : undefined;
      const syncEl = onChange ? childElement(onChange, 'sync-on-start', YP_NS) : undefined;
      const sub: Dynamic = {
        id,
        session,
        kind: 'datastore',
        filter,
        datastore: name,
        periodMs: period === undefined ? undefined : period * 10,
        dampeningMs: dampEl ? Number(textOf(dampEl).trim()) * 10 : 0,
        timers: [],
        last: undefined,
        pending: false,
        replaying: false,
        queued: [],
      };
      this.subs.set(id, sub);
      if (sub.periodMs !== undefined) {
        // Evaluate the selection once now, so a filter that cannot be evaluated is refused here
        // rather than failing later on a timer.
        await this.content(sub);
        const t = setInterval(() => this.guarded(sub, this.pushUpdate(sub)), sub.periodMs);
        t.unref();
        sub.timers.push(t);
      } else {
        sub.last = await this.content(sub);
        // RFC 8641 3.10: sync-on-start (default true) sends the full content first.
        if (!syncEl || textOf(syncEl).trim() !== 'false') setImmediate(() => this.sendUpdate(sub, sub.last!));
      }
    } else {
      const streamEl = sn('stream');
      const stream = streamEl ? textOf(streamEl).trim() : 'NETCONF';
      if (stream !== 'NETCONF')
        throw rpcError('invalid-value', `no stream "${stream}"`, {
          errorAppTag: 'ietf-subscribed-notifications:stream-unavailable',
        });
      const subtree = sn('stream-subtree-filter');
      const xpath = sn('stream-xpath-filter');
      const filter: Selection = subtree
        ? { subtree: childElements(subtree) }
        : xpath
          ? { xpath: textOf(xpath).trim(), scope: xpath.scope }
          : undefined;
      const replayEl = sn('replay-start-time');
      const sub: Dynamic = {
        id,
        session,
        kind: 'stream',
        filter,
        datastore: 'running',
        periodMs: undefined,
        dampeningMs: 0,
        timers: [],
        last: undefined,
        pending: false,
        replaying: replayEl !== undefined,
        queued: [],
      };
      this.subs.set(id, sub);
      if (replayEl) {
        const start = Date.parse(textOf(replayEl).trim());
        setImmediate(() => {
          for (const e of this.server.events.between(start, stop ?? Number.POSITIVE_INFINITY))
            this.deliver(sub, e);
          session.notify(
            notification(`<replay-completed xmlns="${SN_NS}"><id>${id}</id></replay-completed>`),
          );
          sub.replaying = false;
          for (const e of sub.queued.splice(0)) this.deliver(sub, e);
        });
      }
    }
    if (stop !== undefined && !Number.isNaN(stop)) {
      const sub = this.subs.get(id)!;
      const t = setTimeout(
        () => {
          session.notify(
            notification(`<subscription-completed xmlns="${SN_NS}"><id>${id}</id></subscription-completed>`),
          );
          this.remove(id);
        },
        Math.max(0, stop - Date.now()),
      );
      t.unref();
      sub.timers.push(t);
    }
    return `<id xmlns="${SN_NS}">${id}</id>`;
  }

  /** RFC 8639 2.4.4 delete-subscription (own) and 2.4.5 kill-subscription (any). */
  remove(id: number, by?: ServerSession, kill = false): void {
    const sub = this.subs.get(id);
    if (!sub || (by && !kill && sub.session !== by)) {
      throw rpcError('invalid-value', `no subscription ${id} of this session`, {
        errorAppTag: 'ietf-subscribed-notifications:no-such-subscription',
      });
    }
    for (const t of sub.timers) clearTimeout(t);
    this.subs.delete(id);
  }

  /** Ends the subscriptions of a closed session. */
  sessionEnded(session: ServerSession): void {
    for (const sub of [...this.subs.values()]) if (sub.session === session) this.remove(sub.id);
  }

  /** A logged event for the stream subscriptions. */
  event(event: LoggedEvent): void {
    for (const sub of this.subs.values()) {
      if (sub.kind !== 'stream') continue;
      if (sub.replaying) sub.queued.push(event);
      else this.deliver(sub, event);
    }
  }

  /** Running changed: on-change subscriptions compare their selection and push after dampening. */
  changed(): void {
    for (const sub of this.subs.values()) {
      if (sub.kind !== 'datastore' || sub.periodMs !== undefined || sub.pending) continue;
      sub.pending = true;
      const t = setTimeout(() => {
        sub.pending = false;
        this.guarded(sub, this.pushChange(sub));
      }, sub.dampeningMs);
      t.unref();
      sub.timers.push(t);
      if (sub.timers.length > 16) sub.timers.splice(0, sub.timers.length - 16);
    }
  }

  /** The ietf-subscribed-notifications `subscriptions` state. */
  stateXml(): string {
    if (this.subs.size === 0) return '';
    let s = `<subscriptions xmlns="${SN_NS}">`;
    for (const sub of this.subs.values()) {
      s += `<subscription><id>${sub.id}</id>`;
      s +=
        sub.kind === 'stream'
          ? '<stream>NETCONF</stream>'
          : `<datastore xmlns="${YP_NS}" xmlns:ds="${DS_NS}">ds:${sub.datastore}</datastore>`;
      s += `<receivers><receiver><name>session-${sub.session.id}</name><state>active</state></receiver></receivers></subscription>`;
    }
    return `${s}</subscriptions>`;
  }

  /**
   * Runs timer-driven work: a failure ends the subscription with subscription-terminated
   * (RFC 8639 2.7.3) instead of escaping as an unhandled rejection.
   */
  private guarded(sub: Dynamic, work: Promise<void>): void {
    work.catch(() => {
      if (!this.subs.has(sub.id)) return;
      this.remove(sub.id);
      sub.session.notify(
        notification(
          `<subscription-terminated xmlns="${SN_NS}"><id>${sub.id}</id><reason>filter-unavailable</reason></subscription-terminated>`,
        ),
      );
    });
  }

  private deliver(sub: Dynamic, event: LoggedEvent): void {
    const text = writeEvent(this.server.schema, event, sub.filter as EventFilter | undefined);
    if (text) sub.session.notify(text);
  }

  private async content(sub: Dynamic): Promise<string> {
    const root: DataNode =
      sub.datastore === 'operational'
        ? await this.server.operationalView(sub.session)
        : this.server.running.root;
    let selection: Selected[];
    if (!sub.filter) selection = selectAll(root);
    else if ('subtree' in sub.filter) selection = subtreeFilter(this.server.schema, root, sub.filter.subtree);
    else selection = xpathFilter(this.server.schema, root, sub.filter.xpath, sub.filter.scope);
    return writeSelection(this.server.schema, selection);
  }

  private sendUpdate(sub: Dynamic, content: string): void {
    if (!this.subs.has(sub.id)) return;
    sub.session.notify(
      notification(
        `<push-update xmlns="${YP_NS}"><id>${sub.id}</id><datastore-contents>${content}</datastore-contents></push-update>`,
      ),
    );
  }

  private async pushUpdate(sub: Dynamic): Promise<void> {
    this.sendUpdate(sub, await this.content(sub));
  }

  /**
   * RFC 8641 3.7: a push-change-update whose yang-patch replaces the subscribed content (or deletes
   * it when the selection became empty).
   */
  private async pushChange(sub: Dynamic): Promise<void> {
    if (!this.subs.has(sub.id)) return;
    const now = await this.content(sub);
    if (now === sub.last) return;
    sub.last = now;
    const edit =
      now === ''
        ? '<operation>delete</operation><target>/</target>'
        : `<operation>replace</operation><target>/</target><value>${now}</value>`;
    sub.session.notify(
      notification(
        `<push-change-update xmlns="${YP_NS}"><id>${sub.id}</id><datastore-changes><yang-patch><patch-id>s${sub.id}-${Date.now()}</patch-id><edit><edit-id>1</edit-id>${edit}</edit></yang-patch></datastore-changes></push-change-update>`,
      ),
    );
  }
}
