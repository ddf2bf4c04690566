import { RestconfClientError } from './errors.js';
import { parseXml, xmlChildren } from './xml.js';

/**
 * Finds the RESTCONF root in a host-meta document (RFC 8040 section 3.1, RFC 6415):
 *
 *     <XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">
 *       <Link rel="restconf" href="/restconf"/>
 *     </XRD>
 *
 * or its JSON form `{ "links": [ { "rel": "restconf", "href": "/restconf" } ] }`. Returns
 * the `href` without a trailing slash (`''` for a root at `/`).
 *
 * @throws {RestconfClientError} `DISCOVERY_FAILED` when there is no `restconf` link;
 *   `INVALID_RESPONSE` for a body that does not parse
 */
export function parseHostMeta(text: string, mediaType = 'application/xrd+xml'): string {
  let links: unknown[];
  if (/json/i.test(mediaType)) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new RestconfClientError('INVALID_RESPONSE', 'host-meta is not JSON', { cause: error });
    }
    const list = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).links : undefined;
    links = (Array.isArray(list) ? list : []).map((l) =>
      typeof l === 'object' && l !== null ? { '@_rel': l.rel, '@_href': l.href } : l,
    );
  } else {
    links = xmlChildren(xmlChildren(parseXml(text), 'XRD')[0], 'Link');
  }
  for (const link of links) {
    if (typeof link !== 'object' || link === null) continue;
    const { '@_rel': rel, '@_href': href } = link as Record<string, unknown>;
    if (rel === 'restconf' && typeof href === 'string' && href !== '') {
      return href.endsWith('/') ? href.slice(0, -1) : href;
    }
  }
  throw new RestconfClientError('DISCOVERY_FAILED', "host-meta has no Link with rel='restconf'");
}
