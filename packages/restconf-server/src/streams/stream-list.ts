import type { NetconfSession } from '@yangkit/netconf-client';
import { childElement, childElements, escapeXmlText, readXml, textOf } from '@yangkit/xml';

/** RFC 5277 section 3.2.1 namespace of the stream list (`netconf/streams`). */
export const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';

/** The encodings a stream is offered in; each has its own location (`<encoding>-<stream>`). */
export const STREAM_ENCODINGS = ['xml', 'json'] as const;

/** One event stream of the backend (RFC 5277 section 3.2.1, RFC 8040 section 9.2.1). */
export interface EventStreamInfo {
  readonly name: string;
  readonly description?: string;
  readonly replaySupport: boolean;
  readonly replayLogCreationTime?: string;
}

/**
 * Reads the backend's stream list with `<get>` on `netconf/streams`. A backend that has
 * `:notification` but no stream list still has the `NETCONF` stream (RFC 5277 section 3.2.3).
 */
export async function readStreamList(session: NetconfSession): Promise<EventStreamInfo[]> {
  const fallback: EventStreamInfo[] = [
    { name: 'NETCONF', description: 'default NETCONF event stream', replaySupport: false },
  ];
  let data: string;
  try {
    data = await session.get({ filter: `<netconf xmlns="${NCEVENT_NS}"><streams/></netconf>` });
  } catch {
    return fallback;
  }
  const netconf = readXml(data).find((e) => e.local === 'netconf' && e.ns === NCEVENT_NS);
  const streams = netconf === undefined ? undefined : childElement(netconf, 'streams', NCEVENT_NS);
  if (streams === undefined) return fallback;
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
  return list.length === 0 ? fallback : list;
}

/** The location of a stream in one encoding: `{serverUrl}{root}/streams/<encoding>-<name>`. */
export function streamLocation(serverUrl: string, root: string, encoding: string, name: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${root}/streams/${encoding}-${encodeURIComponent(name)}`;
}

/**
 * `restconf-state/streams` content as XML (RFC 8040 section 9.2): one `stream` per backend stream
 * with an `access` entry per encoding. Wire form:
 * `<streams><stream><name>NETCONF</name>...<access><encoding>xml</encoding><location>url</location></access></stream></streams>`.
 */
export function streamsXml(list: readonly EventStreamInfo[], serverUrl: string, root: string): string {
  const parts = list.map((s) => {
    const access = STREAM_ENCODINGS.map(
      (e) =>
        `<access><encoding>${e}</encoding><location>${escapeXmlText(streamLocation(serverUrl, root, e, s.name))}</location></access>`,
    ).join('');
    const description =
      s.description === undefined ? '' : `<description>${escapeXmlText(s.description)}</description>`;
    const created =
      s.replaySupport && s.replayLogCreationTime !== undefined
        ? `<replay-log-creation-time>${escapeXmlText(s.replayLogCreationTime)}</replay-log-creation-time>`
        : '';
    return `<stream><name>${escapeXmlText(s.name)}</name>${description}<replay-support>${s.replaySupport}</replay-support>${created}${access}</stream>`;
  });
  return `<streams>${parts.join('')}</streams>`;
}
