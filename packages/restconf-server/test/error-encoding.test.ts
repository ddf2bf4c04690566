import { describe, expect, test } from 'vitest';
import { errorEncoding } from '../src/error-body.js';

const options = { defaultEncoding: 'json', strictHeaders: true } as const;
const XML = 'application/yang-data+xml';
const JSON_TYPE = 'application/yang-data+json';

describe('errorEncoding (RFC 8040 section 7.1)', () => {
  test('Accept decides when it names a yang-data type', () => {
    expect(errorEncoding({ accept: XML, 'content-type': JSON_TYPE }, options)).toBe('xml');
  });

  test('the request body type decides when there is no Accept', () => {
    expect(errorEncoding({ 'content-type': XML }, options)).toBe('xml');
  });

  test('a YANG Patch body in XML gives XML errors', () => {
    expect(errorEncoding({ 'content-type': 'application/yang-patch+xml' }, options)).toBe('xml');
  });

  test('the request body type decides under a wildcard Accept', () => {
    expect(errorEncoding({ accept: '*/*', 'content-type': XML }, options)).toBe('xml');
  });

  test('the default decides without Accept or Content-Type', () => {
    expect(errorEncoding({}, { ...options, defaultEncoding: 'xml' })).toBe('xml');
  });

  test('an unusable Accept falls back to the body type instead of failing', () => {
    expect(errorEncoding({ accept: 'text/html', 'content-type': XML }, options)).toBe('xml');
  });

  test('an unsupported Content-Type falls back to the default', () => {
    expect(errorEncoding({ 'content-type': 'text/plain' }, options)).toBe('json');
  });
});
