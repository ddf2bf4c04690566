import { encodeEvent } from '@yangkit/sse-stream';
import { escapeXmlText } from '@yangkit/xml';
import { encodeJson, encodeXml, type Steps } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { BackendNotification } from '../backend.js';
import type { Encoding } from '../media.js';
import type { EventFilter } from './event-filter.js';
import { NCEVENT_NS } from './stream-list.js';

const NOTIFICATION_NS = 'urn:ietf:params:xml:ns:netconf:notification:1.0';

/**
 * One notification as the text of an SSE event (RFC 8040 section 6.4). XML: the
 * `<notification>` element with `<eventTime>` and the event. JSON (RFC 8040 section 6.4, RFC 7951):
 * `{"ietf-restconf:notification":{"eventTime":"...","module:event":{...}}}`.
 */
export function notificationMessage(
  schema: SchemaTree,
  n: BackendNotification,
  encoding: Encoding,
  indent: number,
): string {
  const control = n.control;
  if (control !== undefined && schema.moduleByName('nc-notifications')?.implemented !== true) {
    // The schema may lack nc-notifications; these events have no content to encode.
    return encoding === 'xml'
      ? `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${escapeXmlText(n.eventTime)}</eventTime><${control} xmlns="${NCEVENT_NS}"/></notification>`
      : JSON.stringify({
          'ietf-restconf:notification': { eventTime: n.eventTime, [`nc-notifications:${control}`]: {} },
        });
  }
  return encoding === 'xml' ? encodeXml(n.tree) : encodeJson(n.tree, { indent });
}

/**
 * What the clients of one notification share: its SSE event per encoding, formatted and encoded
 * to bytes once, and whether each filter expression selects it.
 */
interface Shared {
  readonly events: Map<Encoding, Uint8Array>;
  /** Per expression: whether it selects the notification, or what its evaluation threw. */
  readonly matches: Map<string, boolean | { readonly error: unknown }>;
}

/**
 * The encoded SSE events of the notifications being delivered, so that an event delivered to many
 * clients is filtered once per filter expression and encoded once per encoding, not once per
 * client: every client's writer sends the same bytes. A notification object belongs to one feed,
 * that is one user (see `LiveFeeds`), so only clients with the same view of the events share it.
 * Entries go with their notification (a WeakMap).
 */
export class MessageCache {
  readonly #entries = new WeakMap<BackendNotification, Shared>();

  #shared(n: BackendNotification): Shared {
    let shared = this.#entries.get(n);
    if (shared === undefined) this.#entries.set(n, (shared = { events: new Map(), matches: new Map() }));
    return shared;
  }

  /**
   * Whether `filter` selects `n`, in steps (see `EventFilter.matchesSteps`), evaluated once per
   * expression: a client whose filter another one evaluated on `n` gets its outcome, its
   * `WORK_LIMIT` error included.
   */
  *matchesSteps(n: BackendNotification, filter: EventFilter): Steps<boolean> {
    const { matches } = this.#shared(n);
    let outcome = matches.get(filter.expression);
    if (outcome === undefined) {
      try {
        outcome = yield* filter.matchesSteps(n.tree);
      } catch (error) {
        outcome = { error };
      }
      matches.set(filter.expression, outcome);
    }
    if (typeof outcome === 'boolean') return outcome;
    throw outcome.error;
  }

  /** The SSE event of `n` in `encoding` (UTF-8 bytes for `SseWriter.sendEncoded`), encoded once. */
  event(schema: SchemaTree, n: BackendNotification, encoding: Encoding, indent: number): Uint8Array {
    const { events } = this.#shared(n);
    let bytes = events.get(encoding);
    if (bytes === undefined) {
      bytes = encodeEvent({ data: notificationMessage(schema, n, encoding, indent) });
      events.set(encoding, bytes);
    }
    return bytes;
  }
}
