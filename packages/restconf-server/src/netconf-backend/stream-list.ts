import type { NetconfSession } from '@yangkit/netconf-client';
import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import type { EventStreamInfo } from '../backend.js';

/** RFC 5277 section 3.2.1 namespace of the stream list (`netconf/streams`). */
const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';

/** RFC 5277 section 3.2.3: a server with `:notification` has the `NETCONF` stream. */
const DEFAULT_STREAMS: readonly EventStreamInfo[] = [
  { name: 'NETCONF', description: 'default NETCONF event stream', replaySupport: false },
];

/**
 * Reads the server's stream list with `<get>` on `netconf/streams`, from the parsed reply. A
 * server that has `:notification` but no stream list still has the `NETCONF` stream.
 */
export async function readStreamList(session: NetconfSession): Promise<readonly EventStreamInfo[]> {
  let data: XmlElement | undefined;
  try {
    const reply = await session.rpc(
      `<get><filter type="subtree"><netconf xmlns="${NCEVENT_NS}"><streams/></netconf></filter></get>`,
    );
    data = childElement(reply.element, 'data');
  } catch {
    return DEFAULT_STREAMS;
  }
  const netconf = data === undefined ? undefined : childElement(data, 'netconf', NCEVENT_NS);
  const streams = netconf === undefined ? undefined : childElement(netconf, 'streams', NCEVENT_NS);
  if (streams === undefined) return DEFAULT_STREAMS;
  const list: EventStreamInfo[] = [];
  for (const el of childElements(streams, 'stream', NCEVENT_NS)) {
    const text = (name: string): string | undefined => {
      const child = childElement(el, name, NCEVENT_NS);
      return child === undefined ? undefined : textOf(child).trim();
    };
    const name = text('name');
    if (name === undefined || name === '') continue;
    const description = text('description');
    const created = text('replayLogCreationTime');
    list.push({
      name,
      ...(description === undefined ? {} : { description }),
      replaySupport: text('replaySupport') === 'true',
      ...(created === undefined ? {} : { replayLogCreationTime: created }),
    });
  }
  return list.length === 0 ? DEFAULT_STREAMS : list;
}
