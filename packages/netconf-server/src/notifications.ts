import { NOTIFICATION_NS } from '@yangkit/netconf-client';
import type { XmlElement } from '@yangkit/xml';
import type { SchemaTree } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath } from '@yangkit/yang-xpath';
import type { DataNode } from './data-tree.js';
import { rpcError } from './errors.js';
import { subtreeFilter, xpathFilter } from './filter.js';
import { type Selected, selectAll, writeSelection } from './write-xml.js';

/** RFC 5277 `nc-notifications` namespace (replayComplete, notificationComplete, streams). */
export const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';

/** One event of the NETCONF stream. */
export interface LoggedEvent {
  readonly time: number;
  /** RFC 3339 eventTime. */
  readonly eventTime: string;
  /** A root holding the notification instance. */
  readonly root: DataNode;
}

/**
 * A filter of a subscription (RFC 5277 section 2.1.1). An XPath filter carries its expression
 * compiled once, when the subscription is made or modified, so that an event costs only the
 * evaluation.
 */
export type EventFilter =
  | { readonly subtree: readonly XmlElement[] }
  | {
      readonly xpath: string;
      readonly scope: ReadonlyMap<string, string>;
      readonly compiled?: CompiledXPath;
    };

/**
 * The filter with its XPath expression compiled; an expression that does not compile is refused
 * with `invalid-value` now, when the subscription is asked for, not later with an event.
 */
export function compileEventFilter<F extends EventFilter>(filter: F): F {
  if (!('xpath' in filter) || filter.compiled !== undefined) return filter;
  try {
    return { ...filter, compiled: compileXPath(filter.xpath, { prefixes: filter.scope }) };
  } catch (error) {
    throw rpcError(
      'invalid-value',
      `invalid XPath filter: ${error instanceof Error ? error.message : String(error)}`,
      { errorType: 'protocol', errorInfo: { 'bad-attribute': 'select', 'bad-element': 'filter' } },
    );
  }
}

/**
 * The bounded replay log of the NETCONF stream (RFC 5277 section 3.2): the newest `limit` events,
 * oldest dropped first.
 */
export class EventLog {
  private readonly events: LoggedEvent[] = [];
  constructor(readonly limit: number) {}

  append(event: LoggedEvent): void {
    this.events.push(event);
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
  }

  /** Events with `start <= time <= stop`, oldest first. */
  between(start: number, stop: number): LoggedEvent[] {
    return this.events.filter((e) => e.time >= start && e.time <= stop);
  }

  /** The time of the oldest logged event (RFC 5277 replayLogCreationTime is the server start). */
  get oldest(): number | undefined {
    return this.events[0]?.time;
  }
}

/** RFC 3339 date-and-time with milliseconds, UTC. */
export function eventTimeOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** Writes one event as a `<notification>`, or undefined when the filter drops it. */
export function writeEvent(
  tree: SchemaTree,
  event: LoggedEvent,
  filter: EventFilter | undefined,
): string | undefined {
  let selection: Selected[];
  if (filter === undefined) selection = selectAll(event.root);
  else if ('subtree' in filter) selection = subtreeFilter(tree, event.root, filter.subtree);
  else selection = xpathFilter(tree, event.root, filter.compiled ?? filter.xpath, filter.scope);
  if (selection.length === 0) return undefined;
  return `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${event.eventTime}</eventTime>${writeSelection(tree, selection)}</notification>`;
}

/** RFC 5277 section 3.1: the end of a replay, or of a subscription with a stop time. */
export function writeControlEvent(kind: 'replayComplete' | 'notificationComplete', ms = Date.now()): string {
  return `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${eventTimeOf(ms)}</eventTime><${kind} xmlns="${NCEVENT_NS}"/></notification>`;
}
