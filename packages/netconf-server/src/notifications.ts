import { NOTIFICATION_NS } from '@yangkit/netconf-client';
import {
  encodeXmlChunks,
  type FilterElement,
  type InstanceTree,
  joinSteps,
  type Steps,
  selectSubtreeSteps,
  selectXPathSteps,
} from '@yangkit/yang-json-codec';
import { type CompiledXPath, compileXPath, XPathError } from '@yangkit/yang-xpath';
import { rpcError } from './errors.js';
import { compiledXPath } from './operation-args.js';

/** RFC 5277 `nc-notifications` namespace (replayComplete, notificationComplete, streams). */
export const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';

/** One event of the NETCONF stream. */
export interface LoggedEvent {
  readonly time: number;
  /** RFC 3339 eventTime. */
  readonly eventTime: string;
  /** The notification as a codec document (kind `notification`). */
  readonly tree: InstanceTree;
}

/**
 * A filter of a subscription (RFC 5277 section 2.1.1). An XPath filter carries its expression
 * compiled once, when the subscription is made or modified, so that an event costs only the
 * evaluation.
 */
export type EventFilter =
  | { readonly subtree: readonly FilterElement[] }
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

/**
 * Writes one event as a `<notification>`, or undefined when the filter drops it, in steps (see
 * `EventDelivery`, which runs them in slices): the filter's selection, its XPath expression
 * evaluated node by node within `maxWork` units of work, then the encoding. Past `maxWork` it
 * throws yang-xpath's `WORK_LIMIT` error; an expression that cannot be evaluated on the event
 * otherwise (one that yields no node-set) selects nothing (RFC 5277 section 3.6).
 */
export function* writeEventSteps(
  event: LoggedEvent,
  filter: EventFilter | undefined,
  maxWork: number,
): Steps<string | undefined> {
  let selection = event.tree;
  if (filter !== undefined) {
    try {
      selection =
        'subtree' in filter
          ? yield* selectSubtreeSteps(event.tree, filter.subtree)
          : yield* selectXPathSteps(event.tree, compiledXPath(filter), { maxWork });
    } catch (error) {
      if (XPathError.isWorkLimit(error)) throw error;
      return undefined;
    }
  }
  if (selection.children.size === 0) return undefined;
  return yield* joinSteps(encodeXmlChunks(selection));
}

/** RFC 5277 section 3.1: the end of a replay, or of a subscription with a stop time. */
export function writeControlEvent(kind: 'replayComplete' | 'notificationComplete', ms = Date.now()): string {
  return `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${eventTimeOf(ms)}</eventTime><${kind} xmlns="${NCEVENT_NS}"/></notification>`;
}
