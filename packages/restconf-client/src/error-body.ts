import { RestconfClientError, type RestconfErrorEntry } from './errors.js';
import { parseXml, type XmlElement, xmlChildren, xmlText } from './xml.js';

/** Largest error body decoded; a longer one yields no entries (the raw text is still kept). */
const MAX_ERROR_BODY = 1024 * 1024;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function entryFrom(get: (name: string) => unknown, info: unknown): RestconfErrorEntry | undefined {
  const text = (name: string) => {
    const value = get(name);
    return typeof value === 'string' ? value : xmlText(value);
  };
  const errorType = text('error-type');
  const errorTag = text('error-tag');
  if (errorType === undefined || errorTag === undefined) return undefined;
  const entry: Mutable<RestconfErrorEntry> = { errorType, errorTag };
  const appTag = text('error-app-tag');
  const path = text('error-path');
  const message = text('error-message');
  if (appTag !== undefined) entry.errorAppTag = appTag;
  if (path !== undefined) entry.errorPath = path;
  if (message !== undefined) entry.errorMessage = message;
  if (typeof info === 'object' && info !== null && !Array.isArray(info)) {
    entry.errorInfo = info as Record<string, unknown>;
  }
  return entry;
}

/**
 * Decodes an RFC 8040 section 7.1 error body. JSON (RFC 8040 B.2.1):
 *
 *     { "ietf-restconf:errors": { "error": [ { "error-type": "protocol", "error-tag": "...",
 *       "error-path": "...", "error-message": "...", "error-info": { ... } } ] } }
 *
 * XML: `<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error>...</error></errors>`.
 * Entries lacking `error-type` or `error-tag` are skipped; a body that is no error body gives
 * `[]`. Throws only `RestconfClientError` (`INVALID_RESPONSE`), for a body that does not parse.
 */
export function parseErrorBody(text: string, mediaType: string): RestconfErrorEntry[] {
  if (text.trim() === '' || text.length > MAX_ERROR_BODY) return [];
  if (/xml/i.test(mediaType) || /^\s*</.test(text)) return parseXmlErrors(text);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new RestconfClientError('INVALID_RESPONSE', 'error body is not JSON', { cause: error });
  }
  if (typeof doc !== 'object' || doc === null) return [];
  const errors = (doc as Record<string, unknown>)['ietf-restconf:errors'];
  if (typeof errors !== 'object' || errors === null) return [];
  const list = (errors as Record<string, unknown>).error;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  const entries: RestconfErrorEntry[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const record = item as Record<string, unknown>;
    const entry = entryFrom(
      (name) => (typeof record[name] === 'string' ? record[name] : undefined),
      record['error-info'],
    );
    if (entry) entries.push(entry);
  }
  return entries;
}

function parseXmlErrors(text: string): RestconfErrorEntry[] {
  const doc = parseXml(text);
  const entries: RestconfErrorEntry[] = [];
  for (const errors of xmlChildren(doc, 'errors')) {
    for (const item of xmlChildren(errors, 'error')) {
      if (typeof item !== 'object' || item === null) continue;
      const element = item as XmlElement;
      const entry = entryFrom((name) => element[name], element['error-info']);
      if (entry) entries.push(entry);
    }
  }
  return entries;
}
