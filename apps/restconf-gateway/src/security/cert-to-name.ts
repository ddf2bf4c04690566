import { createHash, timingSafeEqual, type X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { GatewayError } from '../errors.js';

/** The map types of ietf-x509-cert-to-name (RFC 7407 section 4) the gateway implements. */
export type MapType =
  | 'specified'
  | 'san-rfc822-name'
  | 'san-dns-name'
  | 'san-ip-address'
  | 'san-any'
  | 'common-name';

const MAP_TYPES: readonly MapType[] = [
  'specified',
  'san-rfc822-name',
  'san-dns-name',
  'san-ip-address',
  'san-any',
  'common-name',
];

/** A `tls-fingerprint` (RFC 7407): the hash algorithm and the digest of a DER certificate. */
export interface Fingerprint {
  readonly algorithm: 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
  readonly digest: Buffer;
}

/** One `cert-to-name` list entry; no fingerprint matches every verified certificate. */
export interface CertToName {
  readonly fingerprint: Fingerprint | undefined;
  readonly mapType: MapType;
  /** The user name of a `specified` entry. */
  readonly name?: string;
}

/**
 * The mapping used without a `--tls-cert-to-name` file: any certificate that chains to
 * `--tls-ca` is the user of its subject's CommonName.
 */
export const DEFAULT_CERT_TO_NAME: readonly CertToName[] = [
  { fingerprint: undefined, mapType: 'common-name' },
];

/**
 * The first octet of a `tls-fingerprint`: the TLS HashAlgorithm registry (RFC 5246 section
 * 7.4.1.4.1). md5 (1) is not accepted.
 */
const HASH_BY_ID: Readonly<Record<number, Fingerprint['algorithm']>> = {
  2: 'sha1',
  3: 'sha224',
  4: 'sha256',
  5: 'sha384',
  6: 'sha512',
};
const DIGEST_BYTES: Readonly<Record<Fingerprint['algorithm'], number>> = {
  sha1: 20,
  sha224: 28,
  sha256: 32,
  sha384: 48,
  sha512: 64,
};

function invalid(where: string, message: string): GatewayError {
  return new GatewayError('INVALID_CONFIG', `${where}: ${message}`);
}

/**
 * Parses a fingerprint: the `tls-fingerprint` form (`04:AB:...`, a hash algorithm octet then the
 * digest) or a plain SHA-256 digest of 32 colon-separated octets, as `openssl x509 -fingerprint
 * -sha256` prints it.
 */
export function parseFingerprint(text: string, where = 'fingerprint'): Fingerprint {
  // The tls-fingerprint pattern: at most 255 octets in hex pairs separated by colons.
  if (text.length > 765 || !/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2})*$/.test(text))
    throw invalid(where, `${JSON.stringify(text.slice(0, 80))} is not colon-separated hex octets`);
  const octets = Buffer.from(text.replaceAll(':', ''), 'hex');
  if (octets.length === DIGEST_BYTES.sha256) return { algorithm: 'sha256', digest: octets };
  const algorithm = HASH_BY_ID[octets[0]!];
  if (algorithm === undefined || octets.length !== DIGEST_BYTES[algorithm] + 1)
    throw invalid(
      where,
      'a fingerprint is 32 octets of SHA-256, or a hash algorithm octet (02 sha1, 03 sha224, 04 sha256, 05 sha384, 06 sha512) and its digest',
    );
  return { algorithm, digest: octets.subarray(1) };
}

/** Largest map file read (bytes). */
const MAX_FILE_BYTES = 1024 * 1024;
/** Most entries in a map file. */
const MAX_ENTRIES = 10_000;
/** A user name: printable, no control characters, at most 255 characters. */
const NAME = /^[^\p{Cc}]{1,255}$/u;

function mapTypeOf(value: unknown, where: string): MapType {
  const text = typeof value === 'string' ? value.replace(/^(ietf-x509-cert-to-name|x509c2n):/, '') : '';
  if (!MAP_TYPES.includes(text as MapType))
    throw invalid(where, `map-type must be one of ${MAP_TYPES.join(', ')}, not ${JSON.stringify(value)}`);
  return text as MapType;
}

/**
 * Parses the text of a `--tls-cert-to-name` file: a JSON list of `{id?, fingerprint, map-type,
 * name?}` objects (the `cert-to-name` list of RFC 7407, in file order or by `id` when every entry
 * has one). Throws a {@link GatewayError} `INVALID_CONFIG` for anything else.
 */
export function parseCertToName(text: string, where = 'cert-to-name'): CertToName[] {
  if (text.length > MAX_FILE_BYTES) throw invalid(where, `larger than ${MAX_FILE_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(where, `not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw invalid(where, 'must be a JSON list of cert-to-name entries');
  if (parsed.length > MAX_ENTRIES) throw invalid(where, `more than ${MAX_ENTRIES} entries`);
  const entries: { id: number | undefined; entry: CertToName }[] = [];
  for (const [i, item] of parsed.entries()) {
    const at = `${where} entry ${i + 1}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(at, 'not an object');
    const o = item as Record<string, unknown>;
    for (const key of Object.keys(o))
      if (!['id', 'fingerprint', 'map-type', 'name'].includes(key))
        throw invalid(at, `unknown member "${key}"`);
    const id = o.id;
    if (id !== undefined && !(Number.isInteger(id) && (id as number) >= 0 && (id as number) <= 0xffffffff))
      throw invalid(at, 'id must be a uint32');
    if (typeof o.fingerprint !== 'string') throw invalid(at, 'fingerprint is mandatory');
    const fingerprint = parseFingerprint(o.fingerprint, at);
    const mapType = mapTypeOf(o['map-type'], at);
    if (mapType === 'specified') {
      if (typeof o.name !== 'string' || !NAME.test(o.name))
        throw invalid(at, 'a specified entry needs a name of 1 to 255 characters');
      entries.push({ id: id as number | undefined, entry: { fingerprint, mapType, name: o.name } });
    } else {
      if (o.name !== undefined) throw invalid(at, 'name belongs to map-type specified only');
      entries.push({ id: id as number | undefined, entry: { fingerprint, mapType } });
    }
  }
  const withId = entries.filter((e) => e.id !== undefined).length;
  if (withId !== 0 && withId !== entries.length) throw invalid(where, 'give an id to every entry or to none');
  if (withId !== 0) {
    if (new Set(entries.map((e) => e.id)).size !== entries.length) throw invalid(where, 'ids must differ');
    entries.sort((a, b) => a.id! - b.id!);
  }
  return entries.map((e) => e.entry);
}

/** Reads and parses a `--tls-cert-to-name` file. */
export function readCertToNameFile(file: string): CertToName[] {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) throw invalid(file, `larger than ${MAX_FILE_BYTES} bytes`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    throw new GatewayError('FILE', `cannot read --tls-cert-to-name ${file}`, { cause: error });
  }
  return parseCertToName(text, file);
}

/** One subjectAltName entry as node:crypto prints it: `DNS`, `IP Address`, `email`, ... */
export interface AltName {
  readonly type: string;
  readonly value: string;
}

/**
 * Splits node:crypto's `subjectAltName` text (`DNS:a.example, IP Address:192.0.2.1,
 * email:a@b.example`; a value with a comma or quote is a JSON string). Never throws: anything it
 * cannot read ends the list.
 */
export function parseSubjectAltName(text: string | undefined): AltName[] {
  const out: AltName[] = [];
  if (text === undefined) return out;
  let i = 0;
  while (i < text.length && out.length < 1000) {
    const colon = text.indexOf(':', i);
    if (colon < 0) break;
    const type = text.slice(i, colon);
    let value: string;
    let end: number;
    if (text[colon + 1] === '"') {
      // A JSON string: find its closing quote, skipping escaped characters.
      let j = colon + 2;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) break;
      try {
        value = JSON.parse(text.slice(colon + 1, j + 1)) as string;
      } catch {
        break;
      }
      end = j + 1;
    } else {
      const comma = text.indexOf(', ', colon + 1);
      end = comma < 0 ? text.length : comma;
      value = text.slice(colon + 1, end);
    }
    out.push({ type, value });
    if (end >= text.length) break;
    if (!text.startsWith(', ', end)) break;
    i = end + 2;
  }
  return out;
}

/** The 16 octets of an IPv6 address as 32 lowercase hex digits (RFC 7407 san-ip-address). */
function ipv6Hex(address: string): string | undefined {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const b = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, v4.index)}${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const tail = halves.length === 2 && halves[1] !== '' ? halves[1]!.split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...Array<string>(Math.max(fill, 0)).fill('0'), ...tail];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => g.toLowerCase().padStart(4, '0')).join('');
}

/** The name of one subjectAltName entry by its RFC 7407 algorithm, or undefined. */
function altNameToName(alt: AltName, mapType: MapType): string | undefined {
  const any = mapType === 'san-any';
  if (alt.type === 'email' && (any || mapType === 'san-rfc822-name')) {
    // The local part unaltered, the host part in lower case.
    const at = alt.value.lastIndexOf('@');
    return at < 0 ? undefined : `${alt.value.slice(0, at)}${alt.value.slice(at).toLowerCase()}`;
  }
  if (alt.type === 'DNS' && (any || mapType === 'san-dns-name')) return alt.value.toLowerCase();
  if (alt.type === 'IP Address' && (any || mapType === 'san-ip-address')) {
    if (isIPv4(alt.value)) return alt.value;
    return isIPv6(alt.value) ? ipv6Hex(alt.value) : undefined;
  }
  return undefined;
}

/** The subject CommonName of a certificate; undefined when it has none or several. */
export function commonNameOf(cert: X509Certificate): string | undefined {
  const cn = cert.toLegacyObject().subject?.CN as string | string[] | undefined;
  return typeof cn === 'string' ? cn : undefined;
}

function nameOf(entry: CertToName, cert: X509Certificate): string | undefined {
  switch (entry.mapType) {
    case 'specified':
      return entry.name;
    case 'common-name':
      return commonNameOf(cert);
    default:
      for (const alt of parseSubjectAltName(cert.subjectAltName)) {
        const name = altNameToName(alt, entry.mapType);
        if (name !== undefined) return name;
      }
      return undefined;
  }
}

function matches(fingerprint: Fingerprint, cert: X509Certificate): boolean {
  const digest = createHash(fingerprint.algorithm).update(cert.raw).digest();
  return digest.length === fingerprint.digest.length && timingSafeEqual(digest, fingerprint.digest);
}

/**
 * The user name of a verified client certificate (RFC 7589 section 7, RFC 7407 cert-to-name):
 * entries are tried in order; one matches when its fingerprint is that of the presented
 * certificate or of a CA certificate in its verified chain (`chain[0]` is the client's); the
 * first match whose map type yields a name decides. Undefined when none does.
 */
export function certToName(
  entries: readonly CertToName[],
  chain: readonly X509Certificate[],
): string | undefined {
  const cert = chain[0];
  if (cert === undefined) return undefined;
  for (const entry of entries) {
    if (entry.fingerprint !== undefined && !chain.some((c) => matches(entry.fingerprint!, c))) continue;
    const name = nameOf(entry, cert);
    if (name !== undefined && NAME.test(name)) return name;
  }
  return undefined;
}
