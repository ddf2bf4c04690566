import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RestconfError } from '../src/errors.js';
import { bodyType, negotiateEncoding, parseAccept } from '../src/media.js';

const lenient = { defaultEncoding: 'json' as const, strictHeaders: false };
const strict = { defaultEncoding: 'json' as const, strictHeaders: true };

describe('Accept negotiation', () => {
  test('no Accept answers the default encoding', () => {
    expect(negotiateEncoding(undefined, { ...lenient, defaultEncoding: 'xml' })).toBe('xml');
  });

  test('a wildcard answers the preferred encoding', () => {
    expect(negotiateEncoding('*/*', lenient, 'xml')).toBe('xml');
  });

  test('ranges are tried in q order', () => {
    expect(
      negotiateEncoding('application/yang-data+json;q=0.1, application/yang-data+xml;q=0.9', lenient),
    ).toBe('xml');
  });

  test('q=0 excludes a type', () => {
    expect(() => negotiateEncoding('application/yang-data+json;q=0', lenient)).toThrow(RestconfError);
  });

  test('text/json is accepted only without strict headers', () => {
    expect(negotiateEncoding('text/json', lenient)).toBe('json');
    expect(() => negotiateEncoding('text/json', strict)).toThrow(/no acceptable media type/);
  });

  test('parseAccept keeps the client order for equal q', () => {
    expect(parseAccept('a/b, c/d;q=1, e/f;q=0.5').map((r) => r.type)).toEqual(['a/b', 'c/d', 'e/f']);
  });
});

describe('Content-Type', () => {
  test('yang-patch types are accepted only where a patch is', () => {
    expect(bodyType('application/yang-patch+xml', lenient, true)).toEqual({ encoding: 'xml', patch: true });
    expect(() => bodyType('application/yang-patch+xml', lenient, false)).toThrow(RestconfError);
  });

  test('parameters after the type are ignored', () => {
    expect(bodyType('application/yang-data+json; charset=utf-8', strict, false)).toEqual({
      encoding: 'json',
      patch: false,
    });
  });

  test('a missing Content-Type is 415', () => {
    try {
      bodyType(undefined, lenient, false);
      expect.unreachable();
    } catch (e) {
      expect((e as RestconfError).status).toBe(415);
    }
  });
});

describe('header parsers are safe on any input', () => {
  test('an Accept naming an Object.prototype member is refused with 406, not matched', () => {
    for (const accept of ['__proto__', 'constructor', 'toString']) {
      expect(() => negotiateEncoding(accept, lenient), accept).toThrow(/no acceptable media type/);
    }
  });

  test('negotiateEncoding answers an encoding or throws RestconfError 406', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5000 }), fc.boolean(), (accept, strictHeaders) => {
        try {
          const e = negotiateEncoding(accept, { defaultEncoding: 'json', strictHeaders });
          expect(['json', 'xml']).toContain(e);
        } catch (error) {
          expect(RestconfError.isInstance(error)).toBe(true);
          expect((error as RestconfError).status).toBe(406);
        }
      }),
    );
  });

  test('bodyType answers a body type or throws RestconfError 415', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
        fc.boolean(),
        (type, patch) => {
          try {
            bodyType(type, lenient, patch);
          } catch (error) {
            expect(RestconfError.isInstance(error)).toBe(true);
            expect((error as RestconfError).status).toBe(415);
          }
        },
      ),
    );
  });
});
