/**
 * The floor of a conversion: the same documents read and written without any schema work, by
 * @yangkit/xml and JSON.parse/JSON.stringify, in the generic shapes any XML/JSON library gives.
 */
import { escapeXmlText, readXml, type XmlElement } from '@yangkit/xml';

type Generic = string | { [name: string]: Generic | Generic[] };

function generic(e: XmlElement): Generic {
  const elements = e.children.filter((c): c is XmlElement => typeof c !== 'string');
  if (elements.length === 0) return e.children.join('');
  const out: { [name: string]: Generic | Generic[] } = {};
  for (const c of elements) {
    const value = generic(c);
    const seen = out[c.local];
    if (seen === undefined) out[c.local] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[c.local] = [seen, value];
  }
  return out;
}

/** XML text to JSON text, element names as member names. */
export function xmlToJsonFloor(xml: string): string {
  return JSON.stringify(
    readXml(xml, { maxSize: xml.length, maxElements: Number.POSITIVE_INFINITY }).map(generic),
  );
}

function write(name: string, value: unknown, out: string[]): void {
  if (Array.isArray(value)) for (const v of value) write(name, v, out);
  else if (value !== null && typeof value === 'object') {
    out.push(`<${name}>`);
    for (const [k, v] of Object.entries(value)) write(k.slice(k.indexOf(':') + 1), v, out);
    out.push(`</${name}>`);
  } else out.push(`<${name}>${escapeXmlText(String(value))}</${name}>`);
}

/** JSON text to XML text, member names (without module) as element names. */
export function jsonToXmlFloor(json: string): string {
  return plainToXmlFloor(JSON.parse(json) as object);
}

/** The XML of parsed JSON (unindented, without namespaces), member names (without module) as element names. */
export function plainToXmlFloor(value: object): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) write(k.slice(k.indexOf(':') + 1), v, out);
  return out.join('');
}
