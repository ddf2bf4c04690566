import { childElement, childElements, textOf, type XmlElement } from '@yangkit/xml';
import { RestconfClientError, type RestconfErrorEntry } from './errors.js';
import { readBodyXml, xmlRecord } from './xml.js';

/** Largest error body decoded; a longer one yields no entries (the raw text is still kept). */
const MAX_ERROR_BODY = 1024 * 1024;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function entryFrom(
  get: (name: string) => unknown,
  info: unknown,
  editId: string | undefined,
): RestconfErrorEntry | undefined {
  const text = (name: string) => {
    const value = get(name);
    return typeof value === 'string' ? value : undefined;
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
  if (editId !== undefined) entry.editId = editId;
  return entry;
}

/**
 * Decodes an RFC 8040 section 7.1 error body, or the `yang-patch-status` of a failed YANG Patch
 * (RFC 8072 section 2.3), whose entries carry the `edit-id` of their edit. JSON (RFC 8040 B.2.1):
 *
 *     { "ietf-restconf:errors": { "error": [ { "error-type": "protocol", "error-tag": "...",
 *       "error-path": "...", "error-message": "...", "error-info": { ... } } ] } }
 *     { "ietf-yang-patch:yang-patch-status": { "patch-id": "...", "errors": { "error": [...] },
 *       "edit-status": { "edit": [ { "edit-id": "1", "errors": { "error": [...] } } ] } } }
 *
 * XML: `<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error>...</error></errors>`, or
 * `<yang-patch-status>` with the same `<errors>` inside. Entries lacking `error-type` or
 * `error-tag` are skipped; a body that is no error body gives `[]`. Throws only
 * `RestconfClientError` (`INVALID_RESPONSE`), for a body that does not parse.
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
  if (!isRecord(doc)) return [];
  const status = doc['ietf-yang-patch:yang-patch-status'];
  if (!isRecord(status)) return jsonErrors(doc['ietf-restconf:errors'], undefined);
  const editStatus = status['edit-status'];
  const edits = isRecord(editStatus) ? asArray(editStatus.edit) : [];
  return [
    ...jsonErrors(status.errors, undefined),
    ...edits.flatMap((edit) =>
      isRecord(edit)
        ? jsonErrors(edit.errors, typeof edit['edit-id'] === 'string' ? edit['edit-id'] : undefined)
        : [],
    ),
  ];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const asArray = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

/** The entries of a JSON `errors` container. */
function jsonErrors(errors: unknown, editId: string | undefined): RestconfErrorEntry[] {
  if (!isRecord(errors)) return [];
  const entries: RestconfErrorEntry[] = [];
  for (const item of asArray(errors.error)) {
    if (!isRecord(item)) continue;
    const entry = entryFrom(
      (name) => (typeof item[name] === 'string' ? item[name] : undefined),
      item['error-info'],
      editId,
    );
    if (entry) entries.push(entry);
  }
  return entries;
}

function parseXmlErrors(text: string): RestconfErrorEntry[] {
  const root = readBodyXml(text);
  if (root.local === 'errors') return xmlErrors(root, undefined);
  if (root.local !== 'yang-patch-status') return [];
  const entries = childElements(root, 'errors').flatMap((errors) => xmlErrors(errors, undefined));
  for (const editStatus of childElements(root, 'edit-status')) {
    for (const edit of childElements(editStatus, 'edit')) {
      const id = childElement(edit, 'edit-id');
      const editId = id === undefined ? undefined : textOf(id).trim();
      for (const errors of childElements(edit, 'errors')) entries.push(...xmlErrors(errors, editId));
    }
  }
  return entries;
}

/** The entries of an `<errors>` element. */
function xmlErrors(errors: XmlElement, editId: string | undefined): RestconfErrorEntry[] {
  const entries: RestconfErrorEntry[] = [];
  for (const item of childElements(errors, 'error')) {
    const info = childElement(item, 'error-info');
    const entry = entryFrom(
      (name) => {
        const child = childElement(item, name);
        return child === undefined || childElements(child).length > 0 ? undefined : textOf(child).trim();
      },
      info === undefined ? undefined : xmlRecord(info),
      editId,
    );
    if (entry) entries.push(entry);
  }
  return entries;
}
