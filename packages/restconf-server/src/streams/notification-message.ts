import { encodeEventSteps } from '@yangkit/sse-stream';
import { escapeXmlText } from '@yangkit/xml';
import { encodeJsonChunks, encodeXmlChunks, SharedSteps, type Steps } from '@yangkit/yang-json-codec';
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
  return [...messagePieces(schema, n, { encoding, indent })].join('');
}

/** How a client's events are written: in its encoding, JSON indented by `indent` spaces. */
export interface MessageFormat {
  readonly encoding: Encoding;
  readonly indent: number;
}

/** The text of {@link notificationMessage} in the encoder's chunks, each made as it is asked for. */
function messagePieces(schema: SchemaTree, n: BackendNotification, format: MessageFormat): Iterable<string> {
  const control = n.control;
  if (control !== undefined && schema.moduleByName('nc-notifications')?.implemented !== true) {
    // The schema may lack nc-notifications; these events have no content to encode.
    return [
      format.encoding === 'xml'
        ? `<notification xmlns="${NOTIFICATION_NS}"><eventTime>${escapeXmlText(n.eventTime)}</eventTime><${control} xmlns="${NCEVENT_NS}"/></notification>`
        : JSON.stringify({
            'ietf-restconf:notification': { eventTime: n.eventTime, [`nc-notifications:${control}`]: {} },
          }),
    ];
  }
  return format.encoding === 'xml'
    ? encodeXmlChunks(n.tree)
    : encodeJsonChunks(n.tree, { indent: format.indent });
}

/**
 * What the clients of one notification share: its SSE event per encoding, formatted and encoded
 * to bytes once, and whether each filter expression selects it. Both are work in steps that the
 * first client to need it starts and each client's queue takes further when it runs, each step
 * once: a client that leaves meanwhile leaves the rest to the others.
 */
interface Shared {
  readonly events: Map<Encoding, SharedSteps<Uint8Array>>;
  /** Per expression: whether it selects the notification (or what its evaluation throws). */
  readonly matches: Map<string, SharedSteps<boolean>>;
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
   * expression: a client whose filter another one evaluates (or evaluated) on `n` shares its
   * steps and gets its outcome, its `WORK_LIMIT` error included.
   */
  matchesSteps(n: BackendNotification, filter: EventFilter): Steps<boolean> {
    const { matches } = this.#shared(n);
    let shared = matches.get(filter.expression);
    if (shared === undefined)
      matches.set(filter.expression, (shared = new SharedSteps(filter.matchesSteps(n.tree))));
    return shared.resultSteps();
  }

  /**
   * The SSE event of `n` in `format` once another client's steps have encoded it, else undefined
   * (not yet, or it failed: see {@link eventSteps}).
   */
  encodedEvent(n: BackendNotification, format: MessageFormat): Uint8Array | undefined {
    const shared = this.#entries.get(n)?.events.get(format.encoding);
    try {
      return shared?.result()?.value;
    } catch {
      return undefined;
    }
  }

  /**
   * The SSE event of `n` in `format` (UTF-8 bytes for `SseWriter.sendEncoded`), encoded in steps
   * (the codec's chunks, formatted as each comes: see `encodeEventSteps`) once per encoding: a
   * client that needs it while another one's steps encode it shares them.
   */
  eventSteps(schema: SchemaTree, n: BackendNotification, format: MessageFormat): Steps<Uint8Array> {
    const { events } = this.#shared(n);
    let shared = events.get(format.encoding);
    if (shared === undefined)
      events.set(
        format.encoding,
        (shared = new SharedSteps(encodeEventSteps(messagePieces(schema, n, format)))),
      );
    return shared.resultSteps();
  }
}
