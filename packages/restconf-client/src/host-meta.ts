import { childElements, type XmlElement } from '@yangkit/xml';
import { RestconfClientError } from './errors.js';
import { readBodyXml } from './xml.js';

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
  let links: { rel: unknown; href: unknown }[];
  if (/json/i.test(mediaType)) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new RestconfClientError('INVALID_RESPONSE', 'host-meta is not JSON', { cause: error });
    }
    const list = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).links : undefined;
    links = (Array.isArray(list) ? list : []).map((l) =>
      typeof l === 'object' && l !== null
        ? { rel: l.rel, href: l.href }
        : { rel: undefined, href: undefined },
    );
  } else {
    const xrd = readBodyXml(text);
    const attribute = (e: XmlElement, name: string) => e.attributes.find((a) => a.name === name)?.value;
    links =
      xrd.local === 'XRD'
        ? childElements(xrd, 'Link').map((l) => ({ rel: attribute(l, 'rel'), href: attribute(l, 'href') }))
        : [];
  }
  for (const { rel, href } of links) {
    if (rel === 'restconf' && typeof href === 'string' && href !== '') {
      return href.endsWith('/') ? href.slice(0, -1) : href;
    }
  }
  throw new RestconfClientError('DISCOVERY_FAILED', "host-meta has no Link with rel='restconf'");
}
