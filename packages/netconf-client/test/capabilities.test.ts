import { describe, expect, test } from 'vitest';
import { parseCapabilities } from '../src/capabilities.js';

// Verbatim from yuma123 netconfd's hello (XML-unescaped).
const netconfd = [
  'urn:ietf:params:netconf:base:1.0',
  'urn:ietf:params:netconf:base:1.1',
  'urn:ietf:params:netconf:capability:candidate:1.0',
  'urn:ietf:params:netconf:capability:confirmed-commit:1.0',
  'urn:ietf:params:netconf:capability:confirmed-commit:1.1',
  'urn:ietf:params:netconf:capability:url:1.0?scheme=file',
  'urn:ietf:params:netconf:capability:with-defaults:1.0?basic-mode=explicit&also-supported=trim,report-all,report-all-tagged',
  'urn:ietf:params:xml:ns:yang:ietf-interfaces?module=ietf-interfaces&revision=2014-05-08&features=arbitrary-names,pre-provisioning,if-mib',
  'urn:ietf:params:xml:ns:yang:ietf-yang-types?module=ietf-yang-types&revision=2013-07-15',
  'urn:ietf:params:xml:ns:netconf:base:1.0?module=ietf-netconf&revision=2011-06-01&features=writable-running,candidate',
  'urn:example:dev?module=example-dev&deviations=example-dev-deviations,other',
  'urn:ietf:params:netconf:capability:yang-library:1.0?revision=2016-06-21&module-set-id=b2dfea1124d231585e8bf0a674a2a7495a08dd8b',
];

describe('parseCapabilities', () => {
  const caps = parseCapabilities(netconfd);

  test('lists the base versions', () => {
    expect(caps.baseVersions).toEqual(['1.0', '1.1']);
  });

  test('keeps the highest version of a protocol capability', () => {
    expect(caps.protocol.get('confirmed-commit')).toBe('1.1');
    expect(caps.protocol.get('candidate')).toBe('1.0');
  });

  test('decodes with-defaults basic-mode and also-supported', () => {
    expect(caps.withDefaults).toEqual({
      basicMode: 'explicit',
      alsoSupported: ['trim', 'report-all', 'report-all-tagged'],
    });
  });

  test('decodes module, revision and features of a module URI', () => {
    expect(caps.modules[0]).toEqual({
      namespace: 'urn:ietf:params:xml:ns:yang:ietf-interfaces',
      module: 'ietf-interfaces',
      revision: '2014-05-08',
      features: ['arbitrary-names', 'pre-provisioning', 'if-mib'],
      deviations: [],
    });
  });

  test('decodes deviations of a module URI', () => {
    expect(caps.modules.find((m) => m.module === 'example-dev')?.deviations).toEqual([
      'example-dev-deviations',
      'other',
    ]);
  });

  test('reads ietf-netconf announced in the base namespace as a module', () => {
    expect(caps.modules.find((m) => m.module === 'ietf-netconf')?.namespace).toBe(
      'urn:ietf:params:xml:ns:netconf:base:1.0',
    );
  });

  test('decodes the RFC 7950 yang-library capability', () => {
    expect(caps.yangLibrary).toEqual({
      version: '1.0',
      revision: '2016-06-21',
      moduleSetId: 'b2dfea1124d231585e8bf0a674a2a7495a08dd8b',
    });
  });

  test('decodes the RFC 8526 yang-library:1.1 content-id', () => {
    const lib = parseCapabilities([
      'urn:ietf:params:netconf:capability:yang-library:1.1?revision=2019-01-04&content-id=42',
    ]);
    expect(lib.yangLibrary).toEqual({ version: '1.1', revision: '2019-01-04', contentId: '42' });
  });

  test('keeps unknown URIs only in the list', () => {
    const other = parseCapabilities(['http://example.com/whatever']);
    expect(other.modules).toEqual([]);
    expect(other.uris).toEqual(['http://example.com/whatever']);
  });
});
