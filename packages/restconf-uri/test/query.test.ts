import { describe, expect, test } from 'vitest';
import { allowedQueryParameters, classifyTarget, parseQuery } from '../src/index.js';
import { errorOf } from './helpers/error-of.js';

const GET_DATA = { method: 'GET', resource: 'data' } as const;

describe('parseQuery on RFC 8040 appendix B.3 examples', () => {
  test('reads content=config', () => {
    expect(parseQuery('?content=config', GET_DATA).content).toBe('config');
  });

  test('reads content=nonconfig', () => {
    expect(parseQuery('content=nonconfig', GET_DATA).content).toBe('nonconfig');
  });

  test('reads depth=unbounded', () => {
    expect(parseQuery('depth=unbounded', GET_DATA).depth).toBe('unbounded');
  });

  test('reads depth=1 on the API resource', () => {
    expect(parseQuery('depth=1', { method: 'GET', resource: 'api-root' }).depth).toBe(1);
  });

  test('reads the fields example on the YANG library', () => {
    expect(
      parseQuery('fields=ietf-yang-library:modules-state/module(name;revision)', GET_DATA).fields,
    ).toEqual([
      {
        module: 'ietf-yang-library',
        name: 'modules-state',
        children: [
          {
            name: 'module',
            children: [
              { name: 'name', children: [] },
              { name: 'revision', children: [] },
            ],
          },
        ],
      },
    ]);
  });

  test('reads insert=first on POST', () => {
    expect(parseQuery('insert=first', { method: 'POST', resource: 'data' }).insert).toBe('first');
  });

  test('reads insert=after with an encoded point', () => {
    const q = parseQuery('insert=after&point=%2Fexample-jukebox%3Ajukebox%2Fplaylist%3DFoo-One%2Fsong%3D1', {
      method: 'POST',
      resource: 'data',
    });
    expect(q.insert).toBe('after');
    expect(q.point).toEqual({
      segments: [
        { module: 'example-jukebox', name: 'jukebox' },
        { name: 'playlist', keys: ['Foo-One'] },
        { name: 'song', keys: ['1'] },
      ],
    });
  });

  test('reads a point whose key is encoded twice', () => {
    const q = parseQuery('insert=before&point=%2Fm%3Al%3Da%252Cb', { method: 'PUT', resource: 'data' });
    expect(q.point?.segments[0]?.keys).toEqual(['a,b']);
  });

  test('reads filter, start-time and stop-time on a stream', () => {
    const q = parseQuery(
      'filter=%2Fevent%2Fevent-class%3Dfault&start-time=2016-07-01T00:00:00Z&stop-time=2016-07-24T00:00:00Z',
      { method: 'GET', resource: 'stream' },
    );
    expect(q.filter).toBe('/event/event-class=fault');
    expect(q.startTime?.text).toBe('2016-07-01T00:00:00Z');
    expect(q.stopTime?.epochMs).toBe(Date.UTC(2016, 6, 24));
  });

  test('reads with-defaults=report-all-tagged', () => {
    expect(parseQuery('with-defaults=report-all-tagged', GET_DATA).withDefaults).toBe('report-all-tagged');
  });
});

describe('parseQuery values', () => {
  test('returns only vendor for an empty query', () => {
    expect(parseQuery('', GET_DATA)).toEqual({ vendor: new Map() });
    expect(parseQuery('?', GET_DATA)).toEqual({ vendor: new Map() });
  });

  test('skips empty pieces between ampersands', () => {
    expect(parseQuery('depth=3&&content=all&', GET_DATA)).toEqual({
      depth: 3,
      content: 'all',
      vendor: new Map(),
    });
  });

  test('accepts depth 65535', () => {
    expect(parseQuery('depth=65535', GET_DATA).depth).toBe(65535);
  });

  test.each(['0', '65536', '-1', '01', '1.5', 'x', ''])('rejects depth=%s', (value) => {
    const error = errorOf(() => parseQuery(`depth=${value}`, GET_DATA));
    expect(error.code).toBe('QUERY_INVALID_VALUE');
    expect(error.message).toContain("'depth'");
  });

  test('reads the empty-valued flags with or without =', () => {
    const q = parseQuery('with-etag&with-last-modified=&with-owners', GET_DATA);
    expect(q).toMatchObject({ withEtag: true, withLastModified: true, withOwners: true });
  });

  test('rejects a value on a flag parameter', () => {
    expect(errorOf(() => parseQuery('with-etag=yes', GET_DATA)).code).toBe('QUERY_INVALID_VALUE');
  });

  test('reads with-origin on the operational datastore', () => {
    const resource = classifyTarget('/restconf/ds/ietf-datastores:operational');
    expect(parseQuery('with-origin', { method: 'GET', resource }).withOrigin).toBe(true);
  });

  test('rejects with-origin on the running datastore', () => {
    const resource = classifyTarget('/restconf/ds/ietf-datastores:running/a:b');
    expect(errorOf(() => parseQuery('with-origin', { method: 'GET', resource })).code).toBe(
      'QUERY_PARAMETER_NOT_ALLOWED',
    );
  });

  test('reads a confirmed commit with timeout and persist token', () => {
    const q = parseQuery('confirmed=1&confirm-timeout=120&persist=tok%20en', {
      method: 'PUT',
      resource: 'data',
    });
    expect(q).toMatchObject({ confirmed: true, confirmTimeout: 120, persist: 'tok en' });
  });

  test('accepts confirmed=true', () => {
    expect(parseQuery('confirmed=true&persist=t', { method: 'DELETE', resource: 'data' }).confirmed).toBe(
      true,
    );
  });

  test.each(['0', 'yes', ''])('rejects confirmed=%s', (value) => {
    expect(
      errorOf(() => parseQuery(`confirmed=${value}&persist=t`, { method: 'PATCH', resource: 'data' })).code,
    ).toBe('QUERY_INVALID_VALUE');
  });

  test('reads persist-id with or without confirmed', () => {
    const extend = parseQuery('confirmed=1&persist=b&persist-id=a', { method: 'PATCH', resource: 'data' });
    expect(extend).toMatchObject({ confirmed: true, persist: 'b', persistId: 'a' });
    expect(parseQuery('persist-id=a', { method: 'DELETE', resource: 'data' }).persistId).toBe('a');
  });

  test('rejects persist-id on GET', () => {
    expect(errorOf(() => parseQuery('persist-id=a', { method: 'GET', resource: 'data' })).code).toBe(
      'QUERY_PARAMETER_NOT_ALLOWED',
    );
  });

  test('rejects confirm-timeout=0', () => {
    expect(
      errorOf(() =>
        parseQuery('confirmed=1&persist=t&confirm-timeout=0', { method: 'PUT', resource: 'data' }),
      ).code,
    ).toBe('QUERY_INVALID_VALUE');
  });

  test('rejects a confirm-timeout beyond uint32', () => {
    expect(
      errorOf(() =>
        parseQuery('confirmed=1&persist=t&confirm-timeout=4294967296', { method: 'PUT', resource: 'data' }),
      ).code,
    ).toBe('QUERY_INVALID_VALUE');
  });

  test('keeps vendor parameters in request order', () => {
    const q = parseQuery('acme:trace=on&depth=1&acme:level', GET_DATA);
    expect([...q.vendor]).toEqual([
      ['acme:trace', 'on'],
      ['acme:level', ''],
    ]);
  });

  test('keeps a plus sign in a value literal', () => {
    expect(
      parseQuery('start-time=2016-07-01T00:00:00+02:00', { method: 'GET', resource: 'stream' }).startTime
        ?.epochMs,
    ).toBe(Date.UTC(2016, 5, 30, 22));
  });

  test('rejects an invalid fields expression naming the offset', () => {
    const error = errorOf(() => parseQuery('fields=a(b', GET_DATA));
    expect(error.code).toBe('FIELDS_SYNTAX');
    expect(error.message).toContain('offset 3');
  });

  test('rejects an enum value naming the allowed ones', () => {
    const error = errorOf(() => parseQuery('content=everything', GET_DATA));
    expect(error.message).toContain('config, nonconfig, all');
    expect(error.badValue).toBe('everything');
  });

  test('rejects a start-time that is not a date-and-time', () => {
    expect(
      errorOf(() => parseQuery('start-time=2016-02-30T00:00:00Z', { method: 'GET', resource: 'stream' }))
        .code,
    ).toBe('QUERY_INVALID_VALUE');
  });
});

describe('parseQuery rules', () => {
  test('rejects a repeated parameter naming it', () => {
    const error = errorOf(() => parseQuery('depth=1&depth=2', GET_DATA));
    expect(error.code).toBe('QUERY_DUPLICATE_PARAMETER');
    expect(error.message).toBe("query parameter 'depth' appears more than once");
    expect(error.httpStatus).toBe(400);
  });

  test('rejects a repeated vendor parameter', () => {
    expect(errorOf(() => parseQuery('a:b=1&a:b=2', GET_DATA)).code).toBe('QUERY_DUPLICATE_PARAMETER');
  });

  test('rejects an unknown unprefixed parameter naming it', () => {
    const error = errorOf(() => parseQuery('limit=10', GET_DATA));
    expect(error.code).toBe('QUERY_UNKNOWN_PARAMETER');
    expect(error.message).toContain("'limit'");
    expect(error.badElement).toBe('limit');
  });

  test('treats parameter names as case sensitive', () => {
    expect(errorOf(() => parseQuery('Depth=1', GET_DATA)).code).toBe('QUERY_UNKNOWN_PARAMETER');
  });

  test('rejects content on POST with the method and resource in the message', () => {
    const error = errorOf(() => parseQuery('content=all', { method: 'POST', resource: 'data' }));
    expect(error.code).toBe('QUERY_PARAMETER_NOT_ALLOWED');
    expect(error.message).toContain('POST on a data resource');
    expect(error.errorTag).toBe('invalid-value');
    expect(error.httpStatus).toBe(400);
  });

  test('rejects content on an operation resource', () => {
    expect(errorOf(() => parseQuery('content=all', { method: 'GET', resource: 'operation' })).code).toBe(
      'QUERY_PARAMETER_NOT_ALLOWED',
    );
  });

  test('rejects filter on a data resource', () => {
    expect(errorOf(() => parseQuery('filter=%2Fa', GET_DATA)).code).toBe('QUERY_PARAMETER_NOT_ALLOWED');
  });

  test('rejects insert on PATCH', () => {
    expect(errorOf(() => parseQuery('insert=first', { method: 'PATCH', resource: 'data' })).code).toBe(
      'QUERY_PARAMETER_NOT_ALLOWED',
    );
  });

  test('allows GET parameters on HEAD', () => {
    expect(parseQuery('depth=2', { method: 'head', resource: 'datastore' }).depth).toBe(2);
  });

  test('requires point with insert=before', () => {
    const error = errorOf(() => parseQuery('insert=before', { method: 'POST', resource: 'data' }));
    expect(error.code).toBe('QUERY_MISSING_PARAMETER');
    expect(error.errorTag).toBe('missing-element');
    expect(error.httpStatus).toBe(400);
  });

  test('rejects point without insert', () => {
    expect(errorOf(() => parseQuery('point=%2Fm%3Al%3D1', { method: 'POST', resource: 'data' })).code).toBe(
      'QUERY_INVALID_VALUE',
    );
  });

  test('rejects point with insert=last', () => {
    expect(
      errorOf(() => parseQuery('insert=last&point=%2Fm%3Al%3D1', { method: 'POST', resource: 'data' })).code,
    ).toBe('QUERY_INVALID_VALUE');
  });

  test('rejects a point that is not an api-path', () => {
    const error = errorOf(() =>
      parseQuery('insert=after&point=%2F%2F', { method: 'POST', resource: 'data' }),
    );
    expect(error.code).toBe('QUERY_INVALID_VALUE');
    expect(error.message).toContain("'point'");
  });

  test('requires start-time with stop-time', () => {
    expect(
      errorOf(() => parseQuery('stop-time=2016-07-01T00:00:00Z', { method: 'GET', resource: 'stream' })).code,
    ).toBe('QUERY_MISSING_PARAMETER');
  });

  test('rejects a stop-time not later than start-time', () => {
    const error = errorOf(() =>
      parseQuery('start-time=2016-07-01T00:00:00Z&stop-time=2016-07-01T02:00:00%2B02:00', {
        method: 'GET',
        resource: 'stream',
      }),
    );
    expect(error.code).toBe('QUERY_INVALID_VALUE');
    expect(error.message).toContain('later than start-time');
  });

  test('requires persist with confirmed', () => {
    expect(errorOf(() => parseQuery('confirmed=1', { method: 'PUT', resource: 'data' })).code).toBe(
      'QUERY_MISSING_PARAMETER',
    );
  });

  test('requires confirmed with confirm-timeout', () => {
    expect(errorOf(() => parseQuery('confirm-timeout=5', { method: 'PUT', resource: 'data' })).code).toBe(
      'QUERY_MISSING_PARAMETER',
    );
  });

  test('rejects more parameters than maxParameters', () => {
    expect(errorOf(() => parseQuery('a:a&a:b&a:c', { ...GET_DATA, maxParameters: 2 })).code).toBe(
      'URI_TOO_LONG',
    );
  });

  test('rejects a malformed percent escape in a value', () => {
    expect(errorOf(() => parseQuery('filter=%ZZ', { method: 'GET', resource: 'stream' })).code).toBe(
      'URI_BAD_PERCENT_ENCODING',
    );
  });

  test('lists the parameters allowed for GET on a stream', () => {
    expect(allowedQueryParameters('GET', 'stream')).toEqual(['filter', 'start-time', 'stop-time']);
  });
});
