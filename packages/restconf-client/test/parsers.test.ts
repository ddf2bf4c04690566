import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decodeNotification, parseErrorBody, parseHostMeta, RestconfClientError } from '../src/index.js';

const ownErrorsOnly = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(RestconfClientError.isInstance(error)).toBe(true);
  }
};

describe('parseErrorBody', () => {
  test('decodes every member of a JSON error entry', () => {
    const body = JSON.stringify({
      'ietf-restconf:errors': {
        error: [
          {
            'error-type': 'application',
            'error-tag': 'data-missing',
            'error-app-tag': 'instance-required',
            'error-path': '/ex:x/ex:ref',
            'error-message': 'missing target',
            'error-info': { 'bad-value': 'abc', 'error-number': 370 },
          },
        ],
      },
    });
    expect(parseErrorBody(body, 'application/yang-data+json')).toEqual([
      {
        errorType: 'application',
        errorTag: 'data-missing',
        errorAppTag: 'instance-required',
        errorPath: '/ex:x/ex:ref',
        errorMessage: 'missing target',
        errorInfo: { 'bad-value': 'abc', 'error-number': 370 },
      },
    ]);
  });

  test('decodes several XML error entries in order', () => {
    const body =
      '<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf">' +
      '<error><error-type>rpc</error-type><error-tag>operation-failed</error-tag>' +
      '<error-app-tag>general-error</error-app-tag><error-path xmlns:ex="urn:ex">/ex:a</error-path></error>' +
      '<error><error-type>protocol</error-type><error-tag>lock-denied</error-tag>' +
      '<error-info><session-id>4</session-id></error-info></error></errors>';
    expect(parseErrorBody(body, 'application/yang-data+xml')).toEqual([
      { errorType: 'rpc', errorTag: 'operation-failed', errorAppTag: 'general-error', errorPath: '/ex:a' },
      { errorType: 'protocol', errorTag: 'lock-denied', errorInfo: { 'session-id': '4' } },
    ]);
  });

  test('decodes the errors of a failed YANG Patch with their edit-id', () => {
    const error = (tag: string) => ({ 'error-type': 'application', 'error-tag': tag });
    const body = JSON.stringify({
      'ietf-yang-patch:yang-patch-status': {
        'patch-id': 'p',
        'edit-status': {
          edit: [
            { 'edit-id': '1', ok: [null] },
            { 'edit-id': '2', errors: { error: [error('data-exists')] } },
          ],
        },
      },
    });
    expect(parseErrorBody(body, 'application/yang-data+json')).toEqual([
      { errorType: 'application', errorTag: 'data-exists', editId: '2' },
    ]);
  });

  test('decodes the global and edit errors of an XML yang-patch-status', () => {
    const error = (tag: string) =>
      `<error><error-type>application</error-type><error-tag>${tag}</error-tag></error>`;
    const body =
      `<yang-patch-status xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>p</patch-id>` +
      `<errors>${error('operation-failed')}</errors><edit-status><edit><edit-id>e1</edit-id>` +
      `<errors>${error('data-missing')}</errors></edit></edit-status></yang-patch-status>`;
    expect(parseErrorBody(body, 'application/yang-data+xml')).toEqual([
      { errorType: 'application', errorTag: 'operation-failed' },
      { errorType: 'application', errorTag: 'data-missing', editId: 'e1' },
    ]);
  });

  test('skips entries without error-type or error-tag', () => {
    const body =
      '{"ietf-restconf:errors":{"error":[{"error-tag":"x"},{"error-type":"rpc","error-tag":"y"}]}}';
    expect(parseErrorBody(body, 'application/yang-data+json').map((e) => e.errorTag)).toEqual(['y']);
  });

  test('gives no entries for a body that is not an error body', () => {
    expect(parseErrorBody('{"a":1}', 'application/json')).toEqual([]);
    expect(parseErrorBody('', 'application/json')).toEqual([]);
  });

  test('rejects deeply nested XML with INVALID_RESPONSE', () => {
    const deep = `${'<a>'.repeat(500)}${'</a>'.repeat(500)}`;
    expect(() => parseErrorBody(deep, 'application/yang-data+xml')).toThrow(
      expect.objectContaining({ code: 'INVALID_RESPONSE' }),
    );
  });

  test('throws only RestconfClientError on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom('application/yang-data+json', 'application/yang-data+xml'),
        (text, media) => ownErrorsOnly(() => parseErrorBody(text, media)),
      ),
      { numRuns: 2000 },
    );
  });

  test('throws only RestconfClientError on error-body-like JSON', () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string()),
      fc.dictionary(fc.string(), fc.string()),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('error-type', 'error-tag', 'error-info', 'error-path'), value),
        (entry) =>
          ownErrorsOnly(() =>
            parseErrorBody(JSON.stringify({ 'ietf-restconf:errors': { error: [entry] } }), 'json'),
          ),
      ),
    );
  });

  test('throws only RestconfClientError on yang-patch-status-like JSON', () => {
    const value = fc.jsonValue({ maxDepth: 3 });
    const edit = fc.dictionary(fc.constantFrom('edit-id', 'errors', 'ok'), value);
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('errors', 'edit-status', 'patch-id'),
          fc.oneof(value, fc.record({ edit: fc.array(edit) })),
        ),
        (status) =>
          ownErrorsOnly(() =>
            parseErrorBody(JSON.stringify({ 'ietf-yang-patch:yang-patch-status': status }), 'json'),
          ),
      ),
    );
  });

  test('throws only RestconfClientError on XML built of error elements', () => {
    const tag = fc.constantFrom(
      'errors',
      'error',
      'error-type',
      'error-tag',
      'error-info',
      'x:y',
      'yang-patch-status',
      'edit-status',
      'edit',
      'edit-id',
    );
    const xml: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.string({ maxLength: 8 }),
        fc
          .tuple(tag, fc.array(tie('node'), { maxLength: 3 }))
          .map(([t, kids]) => `<${t}>${kids.join('')}</${t}>`),
      ),
    })).node;
    fc.assert(
      fc.property(xml, (text) => ownErrorsOnly(() => parseErrorBody(text, 'xml'))),
      { numRuns: 1000 },
    );
  });
});

describe('parseHostMeta', () => {
  test('returns the href of the restconf link without a trailing slash', () => {
    const xrd =
      '<?xml version="1.0"?><XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">' +
      '<Link rel="author" href="/me"/><Link rel="restconf" href="/top/restconf/"/></XRD>';
    expect(parseHostMeta(xrd)).toBe('/top/restconf');
  });

  test('reads the JSON form of host-meta', () => {
    expect(parseHostMeta('{"links":[{"rel":"restconf","href":"/restconf"}]}', 'application/json')).toBe(
      '/restconf',
    );
  });

  test('fails with DISCOVERY_FAILED without a restconf link', () => {
    expect(() => parseHostMeta('<XRD><Link rel="other" href="/x"/></XRD>')).toThrow(
      expect.objectContaining({ code: 'DISCOVERY_FAILED' }),
    );
  });

  test('throws only RestconfClientError on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.constantFrom('application/xrd+xml', 'application/json'),
        (text, media) => ownErrorsOnly(() => parseHostMeta(text, media)),
      ),
      { numRuns: 2000 },
    );
  });
});

describe('decodeNotification', () => {
  test('splits a JSON notification into eventTime, event and data', () => {
    const raw =
      '{"ietf-restconf:notification":{"eventTime":"2026-01-01T00:00:00Z","example-mod:event":{"a":1}}}';
    expect(decodeNotification(raw, '7')).toEqual({
      raw,
      id: '7',
      eventTime: '2026-01-01T00:00:00Z',
      event: 'example-mod:event',
      data: { a: 1 },
    });
  });

  test('names the event element of an XML notification and keeps its text', () => {
    const raw =
      '<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>' +
      '<netconf-config-change xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-notifications"/></notification>';
    expect(decodeNotification(raw)).toMatchObject({ event: 'netconf-config-change', data: raw });
  });

  test('rejects data that holds no notification', () => {
    expect(() => decodeNotification('{"x":1}')).toThrow(
      expect.objectContaining({ code: 'INVALID_RESPONSE' }),
    );
  });

  test('throws only RestconfClientError on any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.json().map((j) => `{"ietf-restconf:notification":${j}}`),
        ),
        (text) => ownErrorsOnly(() => decodeNotification(text)),
      ),
      { numRuns: 2000 },
    );
  });
});
