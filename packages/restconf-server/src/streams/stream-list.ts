import { escapeXmlText } from '@yangkit/xml';
import type { EventStreamInfo } from '../backend.js';

/** RFC 5277 section 3.2.1 namespace of the stream list (`netconf/streams`). */
export const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';

/** The encodings a stream is offered in; each has its own location (`<encoding>-<stream>`). */
export const STREAM_ENCODINGS = ['xml', 'json'] as const;

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
