import { type ApiPath, formatApiPathSegment } from '@yangkit/restconf-uri';
import { escapeXmlText } from '@yangkit/xml';
import { jsonValue } from './body.js';
import { RestconfClientError } from './errors.js';
import type { Encoding } from './types.js';

/**
 * The YANG Patch (RFC 8072 section 2.5, operation `insert`) that merges a new entry into a
 * user-ordered list at a position: PATCH has no `insert`/`point` query parameters (RFC 8040
 * section 4.8.5 allows them on POST and PUT only). The patch goes to the parent of `path`;
 * `target` and `point` are the last segments, relative to it. JSON:
 *
 *     { "ietf-yang-patch:yang-patch": { "patch-id": "insert", "edit": [ { "edit-id": "1",
 *       "operation": "insert", "target": "/artist=Foo", "where": "before",
 *       "point": "/artist=Bar", "value": {...} } ] } }
 */
export function insertPatch(
  path: ApiPath,
  value: unknown,
  where: 'first' | 'last' | 'before' | 'after',
  point: ApiPath | undefined,
  encoding: Encoding,
): { parent: ApiPath; body: string } {
  const last = path.segments.at(-1);
  if (last === undefined) throw new RestconfClientError('INVALID_ARGUMENT', 'insert needs a list entry path');
  const parent = { segments: path.segments.slice(0, -1) };
  const target = `/${formatApiPathSegment(last)}`;
  const pointLast = point?.segments.at(-1);
  const pointText = pointLast === undefined ? undefined : `/${formatApiPathSegment(pointLast)}`;
  if (encoding === 'json') {
    const edit = {
      'edit-id': '1',
      operation: 'insert',
      target,
      where,
      ...(pointText === undefined ? {} : { point: pointText }),
      value: jsonValue(value),
    };
    return {
      parent,
      body: JSON.stringify({ 'ietf-yang-patch:yang-patch': { 'patch-id': 'insert', edit: [edit] } }),
    };
  }
  if (typeof value !== 'string') {
    throw new RestconfClientError('INVALID_ARGUMENT', 'an XML insert takes the value as XML text');
  }
  const body =
    '<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>insert</patch-id>' +
    `<edit><edit-id>1</edit-id><operation>insert</operation><target>${escapeXmlText(target)}</target>` +
    `<where>${where}</where>${pointText === undefined ? '' : `<point>${escapeXmlText(pointText)}</point>`}` +
    `<value>${value}</value></edit></yang-patch>`;
  return { parent, body };
}
