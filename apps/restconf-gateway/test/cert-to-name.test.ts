import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import {
  type CertToName,
  certToName,
  commonNameOf,
  DEFAULT_CERT_TO_NAME,
  parseCertToName,
  parseFingerprint,
  parseSubjectAltName,
} from '../src/security/cert-to-name.js';
import { makeTestPki, type TestPki } from './tls-fixtures.js';

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki();
});

/** `04:`-prefixed SHA-256 fingerprint of a PEM certificate, as RFC 7407 writes it. */
function tlsFingerprint(file: string, prefix = '04'): string {
  const digest = createHash('sha256').update(pki.x509(file).raw).digest('hex').toUpperCase();
  return [prefix, ...(digest.match(/../g) ?? [])].join(':');
}

function entries(list: unknown[]): CertToName[] {
  return parseCertToName(JSON.stringify(list));
}

function onlyGatewayErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw error;
  }
}

describe('parseFingerprint', () => {
  test('reads a plain SHA-256 fingerprint as openssl and node:crypto print it', () => {
    const cert = pki.x509(pki.alice.cert);
    const f = parseFingerprint(cert.fingerprint256);
    expect(f.algorithm).toBe('sha256');
    expect(f.digest.toString('hex')).toBe(createHash('sha256').update(cert.raw).digest('hex'));
  });

  test('reads the tls-fingerprint form with the 04 hash algorithm octet', () => {
    const f = parseFingerprint(tlsFingerprint(pki.alice.cert).toLowerCase());
    expect(f.algorithm).toBe('sha256');
    expect(f.digest).toHaveLength(32);
  });

  test('reads a SHA-1 fingerprint with the 02 octet', () => {
    expect(parseFingerprint(`02:${'ab:'.repeat(19)}ab`).algorithm).toBe('sha1');
  });

  test('refuses an MD5 fingerprint', () => {
    expect(() => parseFingerprint(`01:${'ab:'.repeat(15)}ab`)).toThrow(/hash algorithm octet/);
  });

  test('refuses text that is not colon-separated hex', () => {
    expect(() => parseFingerprint('SHA256:abc')).toThrow(GatewayError);
  });

  test('throws only GatewayError on any input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{2}(:[0-9a-f]{2}){0,70}$/)), (s) =>
        onlyGatewayErrors(() => parseFingerprint(s)),
      ),
    );
  });
});

describe('parseCertToName', () => {
  test('reads entries in file order, with ietf-x509-cert-to-name prefixes allowed', () => {
    const list = entries([
      { fingerprint: tlsFingerprint(pki.caCert), 'map-type': 'ietf-x509-cert-to-name:san-dns-name' },
      { fingerprint: tlsFingerprint(pki.caCert), 'map-type': 'specified', name: 'ops' },
    ]);
    expect(list.map((e) => e.mapType)).toEqual(['san-dns-name', 'specified']);
    expect(list[1]?.name).toBe('ops');
  });

  test('orders entries by id when every entry has one', () => {
    const fp = tlsFingerprint(pki.caCert);
    const list = entries([
      { id: 20, fingerprint: fp, 'map-type': 'common-name' },
      { id: 10, fingerprint: fp, 'map-type': 'san-any' },
    ]);
    expect(list.map((e) => e.mapType)).toEqual(['san-any', 'common-name']);
  });

  test('refuses ids on some entries only', () => {
    const fp = tlsFingerprint(pki.caCert);
    expect(() =>
      entries([
        { id: 1, fingerprint: fp, 'map-type': 'common-name' },
        { fingerprint: fp, 'map-type': 'san-any' },
      ]),
    ).toThrow(/every entry or to none/);
  });

  test('refuses a specified entry without a name', () => {
    expect(() => entries([{ fingerprint: tlsFingerprint(pki.caCert), 'map-type': 'specified' }])).toThrow(
      /needs a name/,
    );
  });

  test('refuses a name on another map type', () => {
    expect(() =>
      entries([{ fingerprint: tlsFingerprint(pki.caCert), 'map-type': 'common-name', name: 'x' }]),
    ).toThrow(/specified only/);
  });

  test('refuses an unknown map type, an unknown member and a missing fingerprint', () => {
    const fp = tlsFingerprint(pki.caCert);
    expect(() => entries([{ fingerprint: fp, 'map-type': 'san-uri' }])).toThrow(/map-type/);
    expect(() => entries([{ fingerprint: fp, 'map-type': 'san-any', extra: 1 }])).toThrow(/unknown member/);
    expect(() => entries([{ 'map-type': 'san-any' }])).toThrow(/fingerprint is mandatory/);
  });

  test('refuses text that is not a JSON list', () => {
    expect(() => parseCertToName('{"fingerprint": "04"}')).toThrow(/JSON list/);
    expect(() => parseCertToName('[')).toThrow(/not JSON/);
  });

  test('throws only GatewayError on any text or JSON value', () => {
    fc.assert(fc.property(fc.string(), (s) => onlyGatewayErrors(() => parseCertToName(s))));
    fc.assert(
      fc.property(fc.jsonValue(), (v) => onlyGatewayErrors(() => parseCertToName(JSON.stringify(v)))),
    );
    const entry = fc.record(
      {
        id: fc.oneof(fc.integer(), fc.double(), fc.string()),
        fingerprint: fc.oneof(fc.string(), fc.constant(`04:${'00:'.repeat(31)}00`)),
        'map-type': fc.oneof(fc.string(), fc.constantFrom('specified', 'san-any', 'common-name')),
        name: fc.oneof(fc.string(), fc.integer()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(entry), (list) => onlyGatewayErrors(() => parseCertToName(JSON.stringify(list)))),
    );
  });
});

describe('parseSubjectAltName', () => {
  test("splits node:crypto's list of names", () => {
    expect(parseSubjectAltName('DNS:a.example, IP Address:192.0.2.1, email:x@y.example')).toEqual([
      { type: 'DNS', value: 'a.example' },
      { type: 'IP Address', value: '192.0.2.1' },
      { type: 'email', value: 'x@y.example' },
    ]);
  });

  test('reads a JSON-quoted value with a comma', () => {
    expect(parseSubjectAltName('DNS:"a, b", DNS:c')).toEqual([
      { type: 'DNS', value: 'a, b' },
      { type: 'DNS', value: 'c' },
    ]);
  });

  test('never throws', () => {
    fc.assert(fc.property(fc.string(), (s) => Array.isArray(parseSubjectAltName(s))));
  });
});

describe('certToName (RFC 7589 section 7)', () => {
  const chainOf = (file: string) => [pki.x509(file), pki.x509(pki.caCert)];
  const byCa = (mapType: string, name?: string): unknown => ({
    fingerprint: tlsFingerprint(pki.caCert),
    'map-type': mapType,
    ...(name === undefined ? {} : { name }),
  });

  test('maps the CommonName by default', () => {
    expect(certToName(DEFAULT_CERT_TO_NAME, chainOf(pki.alice.cert))).toBe('alice');
    expect(commonNameOf(pki.x509(pki.bob.cert))).toBe('bob');
  });

  test('san-rfc822-name keeps the local part and lowers the host part', () => {
    expect(certToName(entries([byCa('san-rfc822-name')]), chainOf(pki.alice.cert))).toBe(
      'Alice.Smith@example.com',
    );
  });

  test('san-dns-name lowers the DNS name', () => {
    expect(certToName(entries([byCa('san-dns-name')]), chainOf(pki.alice.cert))).toBe('alice.example.net');
  });

  test('san-ip-address writes IPv4 dotted and IPv6 as 32 lowercase hex digits', () => {
    expect(certToName(entries([byCa('san-ip-address')]), chainOf(pki.alice.cert))).toBe('192.0.2.7');
    expect(certToName(entries([byCa('san-ip-address')]), chainOf(pki.carol.cert))).toBe(
      '20010db80000000000000000000a0001',
    );
  });

  test('san-any takes the first subjectAltName of the three kinds', () => {
    expect(certToName(entries([byCa('san-any')]), chainOf(pki.alice.cert))).toBe('Alice.Smith@example.com');
  });

  test("specified matches the client certificate's own fingerprint", () => {
    const list = entries([
      { fingerprint: tlsFingerprint(pki.bob.cert), 'map-type': 'specified', name: 'operator' },
    ]);
    expect(certToName(list, chainOf(pki.bob.cert))).toBe('operator');
    expect(certToName(list, chainOf(pki.alice.cert))).toBeUndefined();
  });

  test('an entry that yields no name passes to the next one', () => {
    const list = entries([byCa('san-dns-name'), byCa('specified', 'fallback')]);
    expect(certToName(list, chainOf(pki.bob.cert))).toBe('fallback');
  });

  test('an entry whose fingerprint is in no certificate of the chain is skipped', () => {
    const list = entries([
      { fingerprint: tlsFingerprint(pki.alice.cert), 'map-type': 'specified', name: 'wrong' },
      byCa('common-name'),
    ]);
    expect(certToName(list, chainOf(pki.bob.cert))).toBe('bob');
  });

  test('an empty chain maps to nobody', () => {
    expect(certToName(DEFAULT_CERT_TO_NAME, [])).toBeUndefined();
  });
});
