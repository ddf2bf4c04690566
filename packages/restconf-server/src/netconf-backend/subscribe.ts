import type { NetconfNotification, NetconfSession } from '@yangkit/netconf-client';
import { decodeXmlSteps, finishInSlices, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import type {
  BackendNotification,
  BackendSubscription,
  EstablishRequest,
  InvokeRequest,
  StreamSubscribeRequest,
} from '../backend.js';
import { decodeOutput, invokeRpc } from './invoke.js';
import type { Sessions } from './sessions.js';

/** RFC 5277 namespace of the control events (`replayComplete`, `notificationComplete`). */
const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';
const SN_NS = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';

/** Which RFC 5277 control event `n` is, if any (sections 2.2.2, 2.2.3). */
function controlEventOf(n: NetconfNotification): BackendNotification['control'] {
  for (const child of n.element.children) {
    if (typeof child === 'string' || child.ns !== NCEVENT_NS) continue;
    if (child.local === 'replayComplete' || child.local === 'notificationComplete') return child.local;
  }
  return undefined;
}

/**
 * True for the last notification of a subscription: RFC 5277 `notificationComplete`, RFC 8639
 * `subscription-completed` and `subscription-terminated` (sections 2.7.3, 2.7.4; the schema may
 * not express them, so they are told from the element).
 */
function endsSubscription(n: NetconfNotification): boolean {
  return n.element.children.some(
    (c) =>
      typeof c !== 'string' &&
      ((c.ns === NCEVENT_NS && c.local === 'notificationComplete') ||
        (c.ns === SN_NS && (c.local === 'subscription-completed' || c.local === 'subscription-terminated'))),
  );
}

/**
 * Decodes a notification once for every client of the subscription; undefined when it does not
 * decode against the schema (it is skipped). In slices of a few milliseconds: a YANG Push update
 * holds up to the server's bound of content (a megabyte by default), whose decode would otherwise
 * hold every other request for a tenth of a second.
 */
async function decodeNotification(
  schema: SchemaTree,
  n: NetconfNotification,
): Promise<BackendNotification | undefined> {
  const control = controlEventOf(n);
  let tree: InstanceTree;
  try {
    tree = await finishInSlices(decodeXmlSteps(schema, n.element, { kind: 'notification', strict: false }));
  } catch {
    return undefined;
  }
  return { eventTime: n.eventTime, tree, ...(control === undefined ? {} : { control }) };
}

/** A subscription held by a NETCONF session of its own (see `Backend.subscribe`). */
class NetconfSubscription implements BackendSubscription {
  readonly output: InstanceTree | undefined;
  readonly #session: NetconfSession;
  readonly #schema: SchemaTree;
  readonly #events: AsyncIterableIterator<NetconfNotification>;

  constructor(
    session: NetconfSession,
    schema: SchemaTree,
    events: AsyncIterableIterator<NetconfNotification>,
    output: InstanceTree | undefined,
  ) {
    this.#session = session;
    this.#schema = schema;
    this.#events = events;
    this.output = output;
  }

  async invoke(request: InvokeRequest): Promise<InstanceTree> {
    const reply = await this.#session.rpc(await invokeRpc(request));
    return decodeOutput(this.#schema, request.operation, reply);
  }

  pause(): void {
    this.#session.pauseReading();
  }

  resume(): void {
    this.#session.resumeReading();
  }

  close(): void {
    const s = this.#session;
    // The subscription lives as long as its session (RFC 5277 section 2.1.1, RFC 8639 section 2.4.2).
    if (s.endReason === undefined) void s.close().catch(() => s.destroy());
  }

  async *[Symbol.asyncIterator](): AsyncIterator<BackendNotification> {
    try {
      for await (const n of this.#events) {
        const decoded = await decodeNotification(this.#schema, n);
        if (decoded !== undefined) yield decoded;
        if (endsSubscription(n)) return;
      }
    } finally {
      this.close();
    }
  }
}

/**
 * Subscribes on a session of its own, never reused: resolves once the server accepted the
 * subscription; the session is counted as in use until the subscription ends.
 */
export function subscribe(
  sessions: Sessions,
  schema: SchemaTree,
  request: StreamSubscribeRequest | EstablishRequest,
): Promise<BackendSubscription> {
  return new Promise((resolve, reject) => {
    sessions
      .use(request.user, async (session, use) => {
        use.reusable = false;
        const events = session.notifications();
        let output: InstanceTree | undefined;
        if ('establish' in request) {
          const op = {
            operation: request.establish,
            ...(request.input === undefined ? {} : { input: request.input }),
          };
          output = await decodeOutput(schema, request.establish, await session.rpc(await invokeRpc(op)));
        } else {
          const { stream, filter, startTime, stopTime } = request;
          await session.createSubscription({
            stream,
            ...(filter === undefined
              ? {}
              : { filter: { xpath: filter.xpath, namespaces: { ...filter.namespaces } } }),
            ...(startTime === undefined ? {} : { startTime }),
            ...(stopTime === undefined ? {} : { stopTime }),
          });
        }
        resolve(new NetconfSubscription(session, schema, events, output));
        await session.closed;
      })
      .catch(reject);
  });
}
