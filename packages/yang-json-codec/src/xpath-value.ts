import type { YangType } from '@yangkit/yang-schema';

/** The RFC 6991 typedef of XPath 1.0 expressions held as values (NACM rule paths, subscription filters). */
const XPATH_TYPE = 'ietf-yang-types:xpath1.0';

/** True for a `yang:xpath1.0` type or one derived from it (NACM's `node-instance-identifier`). */
export function isXPathType(type: YangType): boolean {
  return type.name === XPATH_TYPE || type.derivedFrom?.includes(XPATH_TYPE) === true;
}

const QNAME = /([A-Za-z_][\w.-]*):(\*|[A-Za-z_][\w.-]*)/y;

/**
 * Rewrites the prefix of every QName and `prefix:*` of an XPath expression outside its string literals with
 * `map(prefix)`; a prefix `map` does not know is left as it is. The value of a `yang:xpath1.0` leaf uses
 * XML namespace prefixes in XML (RFC 6991) and module names in JSON (RFC 7951 section 6.7's rule for
 * instance-identifiers, as RFC 8341 applies it to node-instance-identifier): the tree keeps module names.
 */
export function mapXPathPrefixes(text: string, map: (prefix: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      const stop = end === -1 ? text.length : end + 1;
      out += text.slice(i, stop);
      i = stop;
      continue;
    }
    QNAME.lastIndex = i;
    const m = i === 0 || !/[\w.-]/.test(text[i - 1]!) ? QNAME.exec(text) : null;
    if (m !== null) {
      out += `${map(m[1]!) ?? m[1]}:${m[2]}`;
      i += m[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}
