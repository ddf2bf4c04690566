import type { QueryParameters } from '@yangkit/restconf-uri';
import { SSE_HEADERS } from '@yangkit/sse-stream';
import { type DataNode, encodeJson, encodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaNode } from '@yangkit/yang-schema';
import type { BackendSubscription } from '../backend.js';
import { decodeInput } from '../body.js';
import { encodeOptions, type RequestContext, type Settings } from '../context.js';
import type { Body } from '../edit.js';
import { RestconfError } from '../errors.js';
import { checkEventStreamAccept, dataMediaType, type Encoding } from '../media.js';
import type { Responder } from '../response.js';
import { RSN_MODULE } from './names.js';
import { SubscriptionRegistry, type SubscriptionStats } from './registry.js';
import { requesterOf } from './requester.js';
import { leafNode } from './state.js';
import { Subscription } from './subscription.js';

const registries = new WeakMap<Settings, SubscriptionRegistry>();

/** The subscriptions established through one handler. */
function registryOf(s: Settings): SubscriptionRegistry {
  let r = registries.get(s);
  if (r === undefined) {
    r = new SubscriptionRegistry(s.subscriptions);
    registries.set(s, r);
  }
  return r;
}

/** The subscriptions open now and the bytes waiting for their receivers (`/metrics`, `/server-status`). */
export function subscriptionStats(s: Settings): SubscriptionStats {
  return registryOf(s).stats();
}

/** A live subscription this handler established, by id. */
export function establishedSubscription(s: Settings, id: number): Subscription | undefined {
  return registryOf(s).get(id);
}

/** The `{serverUrl}{root}/subscriptions/<id>` location of a subscription (RFC 8650 section 3.3). */
export function subscriptionUri(s: Settings, id: number): string {
  return `${s.serverUrl}${s.root}/subscriptions/${id}`;
}

/**
 * POST on one of the RFC 8639 operations (RFC 8650 section 3.3): establish-subscription
 * subscribes through the backend and answers `id` and the RFC 8650 `uri`; modify-, delete- and
 * kill-subscription go to the backend, the first two where the subscription lives,
 * kill-subscription as the calling user.
 */
export async function subscriptionOperation(
  ctx: RequestContext,
  op: SchemaNode,
  body: Body | undefined,
): Promise<void> {
  const input = await decodeInput(ctx, body, op);
  if (op.name === 'establish-subscription') return establish(ctx, op, input, body);
  const id = Number(leafOf(input, 'id')?.value);
  const s = ctx.settings;
  const sub = registryOf(s).get(id);
  const user = requesterOf(ctx.out.req);
  const call = { operation: op, ...(input === undefined ? {} : { input }) };
  if (op.name === 'kill-subscription') {
    // kill-subscription ends any subscription, also one of another client; it is meant for
    // administrators (RFC 8639 section 2.4.5), so it runs as the caller, never in the owner's
    // session: access control (RFC 8341) judges the user who asks.
    await s.backend.invoke({ ...call, user });
    sub?.killed();
    ctx.out.empty(204);
    return;
  }
  if (sub === undefined || (sub.owner !== undefined && sub.owner !== user)) {
    throw new RestconfError(
      'REQUEST_INVALID',
      `no subscription ${leafOf(input, 'id')?.value ?? ''} of this client`,
      {
        errorTag: 'invalid-value',
        errorAppTag: 'ietf-subscribed-notifications:no-such-subscription',
        reason: 'not-found',
      },
    );
  }
  await sub.invoke(call);
  if (op.name === 'delete-subscription') sub.end('deleted');
  ctx.out.empty(204);
}

async function establish(
  ctx: RequestContext,
  op: SchemaNode,
  input: InstanceTree | undefined,
  body: Body | undefined,
): Promise<void> {
  const s = ctx.settings;
  // RFC 8650 section 3.4 does not carry replay over RESTCONF.
  if (leafOf(input, 'replay-start-time') !== undefined) {
    throw new RestconfError('REQUEST_INVALID', 'replay is not supported for RESTCONF subscriptions', {
      errorType: 'protocol',
      errorTag: 'invalid-value',
      errorAppTag: 'ietf-subscribed-notifications:replay-unsupported',
    });
  }
  // The gateway encodes notifications itself; the backend always speaks XML.
  const encodingLeaf = leafOf(input, 'encoding');
  let encoding: Encoding = body?.encoding ?? ctx.encoding;
  if (encodingLeaf !== undefined) {
    const v = encodingLeaf.value ?? '';
    if (v.endsWith(':encode-json')) encoding = 'json';
    else if (v.endsWith(':encode-xml')) encoding = 'xml';
    else
      throw new RestconfError('REQUEST_INVALID', `encoding ${v} is not supported`, {
        errorTag: 'invalid-value',
        errorAppTag: 'ietf-subscribed-notifications:encoding-unsupported',
      });
    removeLeaf(input, encodingLeaf);
  }
  const owner = requesterOf(ctx.out.req);
  const registry = registryOf(s);
  // The limits are checked before the backend does any work; the place is kept until the
  // subscription ends, or given back when establishing fails.
  const release = registry.reserve(owner);
  let subscription: BackendSubscription;
  try {
    subscription = await s.backend.subscribe({ establish: op, input, user: owner });
  } catch (error) {
    release();
    throw error;
  }
  const output = subscription.output;
  const id = Number(leafOf(output, 'id')?.value);
  if (output === undefined || !Number.isInteger(id) || registry.has(id)) {
    subscription.close();
    release();
    throw new RestconfError('BACKEND_FAILED', 'establish-subscription answered no usable id', {
      errorTag: 'operation-failed',
      reason: 'bad-gateway',
    });
  }
  const sub = new Subscription(
    id,
    owner,
    encoding,
    subscription,
    {
      schema: s.schema,
      streams: s.events.settings,
      messageIndent: s.messageIndent,
      uri: subscriptionUri(s, id),
      datastore: leafOf(input, 'datastore') !== undefined,
      onEnd: () => {
        registry.delete(id);
        release();
      },
    },
    s.subscriptions.receiveWithinMs,
  );
  registry.add(sub);
  void (async () => {
    try {
      for await (const n of subscription) await sub.deliver(n);
    } finally {
      sub.end('backend-ended');
    }
  })().catch(() => undefined);
  // RFC 8650 section 3.3: the output names the subscription's uri.
  for (const nodes of output.children.values()) {
    for (const n of nodes) {
      const uri = n.schema.dataChild(RSN_MODULE, 'uri');
      if (uri !== undefined) n.children?.set(uri, [leafNode(uri, n, subscriptionUri(s, id))]);
    }
  }
  const opts = encodeOptions(s, ctx.encoding);
  const text = ctx.encoding === 'json' ? encodeJson(output, opts) : encodeXml(output, opts);
  ctx.out.text(200, dataMediaType(ctx.encoding), text);
}

/**
 * GET on `{root}/subscriptions/<id>` (RFC 8650 section 3.4): the subscription's notifications as
 * SSE, to the user that established it (any client when the server does not authenticate), one
 * response per subscription.
 */
export async function serveSubscription(
  s: Settings,
  out: Responder,
  method: string,
  idText: string,
  _query?: QueryParameters,
): Promise<void> {
  const id = /^[0-9]{1,10}$/.test(idText) ? Number(idText) : Number.NaN;
  const sub = registryOf(s).get(id);
  // Another user's subscription is answered as absent: its existence is not disclosed.
  if (sub === undefined || (sub.owner !== undefined && sub.owner !== requesterOf(out.req))) {
    throw new RestconfError('NOT_FOUND', `no subscription '${idText}'`, {
      errorTag: 'invalid-value',
    });
  }
  const allow = ['GET', 'HEAD', 'OPTIONS'];
  if (!allow.includes(method)) {
    throw new RestconfError('METHOD_NOT_ALLOWED', `${method} is not allowed on a subscription`, {
      errorTag: 'operation-not-supported',
      allow,
    });
  }
  if (method === 'OPTIONS') {
    out.header('Allow', allow.join(', '));
    out.empty(200);
    return;
  }
  checkEventStreamAccept(out.req.headers.accept, 'a subscription');
  if (sub.received) {
    throw new RestconfError('REQUEST_INVALID', `subscription ${id} is already being received`, {
      errorTag: 'in-use',
    });
  }
  if (out.head) {
    out.status = 200;
    out.res.writeHead(200, { ...SSE_HEADERS });
    out.res.end();
    return;
  }
  await sub.receive(out);
}

/** The top-level leaf `name` of the operation's input (choices and cases hold no instances). */
function leafOf(input: InstanceTree | undefined, name: string): DataNode | undefined {
  if (input === undefined) return undefined;
  for (const nodes of input.children.values()) {
    for (const n of nodes) {
      if (n.schema.name === name) return n;
      for (const [schema, kids] of n.children ?? []) if (schema.name === name) return kids[0];
    }
  }
  return undefined;
}

function removeLeaf(input: InstanceTree | undefined, leaf: DataNode): void {
  if (input === undefined) return;
  for (const nodes of input.children.values()) for (const n of nodes) n.children?.delete(leaf.schema);
}
