import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readXmlDocument as parseXml } from '@yangkit/xml';
import { describe, expect, test } from 'vitest';
import { parseRpcErrors } from '../src/rpc-error.js';

const fixture = readFileSync(path.resolve(__dirname, 'fixtures/netconfd/data-exists-reply.xml'), 'utf8');

describe('parseRpcErrors', () => {
  const errors = parseRpcErrors(parseXml(fixture));

  test('keeps every rpc-error of the reply in order', () => {
    expect(errors.map((e) => e.errorTag)).toEqual(['data-exists', 'lock-denied']);
  });

  test('decodes the RFC 6241 fields of an error', () => {
    expect(errors[0]).toMatchObject({
      errorType: 'application',
      errorTag: 'data-exists',
      errorSeverity: 'error',
      errorAppTag: 'no-access',
      errorPath: "/nc:rpc/nc:edit-config/nc:config/if:interfaces/if:interface[if:name='chk0']",
      errorMessage: 'data exists',
      errorMessageLang: 'en',
    });
  });

  test('exposes simple error-info children as fields, first value wins', () => {
    expect(errors[1]?.errorInfo?.fields).toEqual({ 'session-id': '12', 'bad-element': 'if:bogus' });
  });

  test('keeps the raw error-info XML with its namespaces', () => {
    const xml = errors[0]?.errorInfo?.xml ?? '';
    expect(xml).toContain('<error-number xmlns="http://netconfcentral.org/ns/yuma-ncx"');
    expect(xml).toContain('>280</error-number>');
  });

  test('turns missing mandatory fields into empty strings', () => {
    const [error] = parseRpcErrors(
      parseXml('<rpc-reply xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><rpc-error/></rpc-reply>'),
    );
    expect(error).toEqual({ errorType: '', errorTag: '', errorSeverity: '' });
  });
});
