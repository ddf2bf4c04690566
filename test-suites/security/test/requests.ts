import fc from 'fast-check';
import { mutate } from '../fuzz/mutate.js';
import { DATA_JSON, DATA_XML, PATCH_JSON, PATCH_XML } from './harness.js';

/** One generated HTTP request against the gateway. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** The body's characters are bytes (0-255): how a body that is not UTF-8 is kept. */
  readonly binary?: boolean;
}

const JB = 'http://example.com/ns/example-jukebox';
const ARTIST = '/restconf/data/example-jukebox:jukebox/library/artist=Foo%20Fighters';

/** Real targets of the example modules, the starting points of mutation. */
export const PATHS = [
  '/restconf',
  '/restconf/data',
  '/restconf/data/example-jukebox:jukebox',
  '/restconf/data/example-jukebox:jukebox/library',
  ARTIST,
  `${ARTIST}/album=Wasting%20Light`,
  `${ARTIST}/album=Wasting%20Light/song=Rope/length`,
  '/restconf/data/example-jukebox:jukebox/playlist=Foo-One',
  '/restconf/data/example-jukebox:jukebox/player/gap',
  '/restconf/operations',
  '/restconf/operations/example-ops:reboot',
  '/restconf/operations/example-ops:get-reboot-info',
  '/restconf/operations/example-jukebox:play',
  '/restconf/data/example-actions:interfaces/interface=eth0/reset',
  '/restconf/data/ietf-restconf-monitoring:restconf-state',
  '/restconf/data/ietf-yang-library:modules-state',
  '/restconf/yang-library-version',
  '/.well-known/host-meta',
];

/** Characters that matter to api-path, query and XML/JSON parsers. */
const NASTY = [
  '%',
  '%2',
  '%zz',
  '%00',
  '%2F',
  '=',
  ',',
  '/',
  '//',
  ':',
  '::',
  '..',
  '?',
  '#',
  '&',
  ';',
  "'",
  '"',
  '<',
  '>',
  '\\',
  '\u00e9',
  '\u{1F600}',
  '%C3%28',
  ' ',
  '*',
];

const nasty = fc.constantFrom(...NASTY);

const segment = fc.oneof(
  fc.constantFrom(
    'example-jukebox:jukebox',
    'library',
    'artist=Foo%20Fighters',
    'album',
    'song=Rope,x',
    'x:y',
    'ietf-restconf:errors',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ maxLength: 12 }),
);

/** Valid targets, mutated targets and random segment lists. */
export const apiPath: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PATHS),
  mutate(fc.constantFrom(...PATHS), fc.oneof(nasty, fc.string({ maxLength: 6 }))),
  fc.array(segment, { maxLength: 8 }).map((s) => `/restconf/data/${s.join('/')}`),
  fc.string({ maxLength: 40 }).map((s) => `/${s}`),
);

const QUERY_NAMES = [
  'depth',
  'content',
  'fields',
  'filter',
  'insert',
  'point',
  'with-defaults',
  'start-time',
  'stop-time',
  'with-origin',
  'odl-pretty',
  'x',
];
const QUERY_VALUES = [
  '1',
  '0',
  '65535',
  '-1',
  'unbounded',
  'all',
  'config',
  'nonconfig',
  'first',
  'last',
  'before',
  'after',
  'report-all',
  'trim',
  'explicit',
  'name;album(name)',
  'a(b(c(d)))',
  '((((',
  '2016-01-01T00:00:00Z',
  `/example-jukebox:jukebox/library/artist=Foo%20Fighters`,
  '/'.repeat(40),
];

const queryPair = fc.tuple(
  fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 8 })),
  fc.oneof(
    fc.constantFrom(...QUERY_VALUES),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
    fc.string({ maxLength: 10 }),
  ),
);

/** Query strings of known and unknown parameters with valid and broken values. */
export const query: fc.Arbitrary<string> = fc
  .array(queryPair, { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));

const MEDIA = [
  DATA_JSON,
  DATA_XML,
  PATCH_JSON,
  PATCH_XML,
  'application/json',
  'application/xml',
  'text/plain',
  '*/*',
  'application/yang-data+json; charset=utf-8',
  'application/yang-data+xml;q=0.1, application/yang-data+json',
  'application/yang-data+',
  ';;;',
  '',
];

const media = fc.oneof(
  fc.constantFrom(...MEDIA),
  fc.string({ maxLength: 30 }).filter((s) => /^[\x21-\x7e ]*$/.test(s)),
);
const token = fc.string({ maxLength: 30 }).filter((s) => /^[\x21-\x7e ]*$/.test(s));

/** Accept, Content-Type and the conditional headers, each present or not. */
export const headers: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    accept: media,
    'content-type': media,
    'if-match': fc.oneof(fc.constant('*'), fc.constant('"0"'), token),
    'if-none-match': fc.oneof(fc.constant('*'), token),
    'if-modified-since': fc.oneof(fc.constant('Sat, 01 Jan 2000 00:00:00 GMT'), token),
    'if-unmodified-since': fc.oneof(fc.constant('Sat, 01 Jan 2000 00:00:00 GMT'), token),
  },
  { requiredKeys: [] },
);

const JSON_BODIES = [
  { 'example-jukebox:artist': [{ name: 'Fuzz' }] },
  { 'example-jukebox:album': [{ name: 'A', year: 2000 }] },
  { 'example-jukebox:gap': 3 },
  { 'example-jukebox:jukebox': { library: { artist: [{ name: 'Fuzz', album: [{ name: 'B' }] }] } } },
  { 'example-ops:input': { delay: 1 } },
  { 'example-jukebox:input': { playlist: 'Foo-One', 'song-number': 1 } },
].map((v) => JSON.stringify(v));

const XML_BODIES = [
  `<artist xmlns="${JB}"><name>Fuzz</name></artist>`,
  `<album xmlns="${JB}"><name>A</name><year>2000</year></album>`,
  `<gap xmlns="${JB}">3</gap>`,
  `<jukebox xmlns="${JB}"><library><artist><name>Fuzz</name></artist></library></jukebox>`,
  `<input xmlns="http://example.com/ns/example-ops"><delay>1</delay></input>`,
];

const PATCH_BODIES = [
  JSON.stringify({
    'ietf-yang-patch:yang-patch': {
      'patch-id': 'fuzz',
      edit: [
        {
          'edit-id': 'e1',
          operation: 'merge',
          target: '/artist=Fuzz',
          value: { 'example-jukebox:artist': [{ name: 'Fuzz' }] },
        },
        { 'edit-id': 'e2', operation: 'delete', target: '/artist=Nobody' },
      ],
    },
  }),
  `<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>fuzz</patch-id><edit><edit-id>e1</edit-id><operation>create</operation><target>/artist=Fuzz</target><value><artist xmlns="${JB}"><name>Fuzz</name></artist></value></edit></yang-patch>`,
];

const VALID = [...JSON_BODIES, ...XML_BODIES, ...PATCH_BODIES];

/** Valid bodies of both encodings and YANG Patch, their mutations, random JSON and random text. */
export const body: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...VALID),
  mutate(fc.constantFrom(...VALID), fc.oneof(nasty, fc.string({ maxLength: 6 }))),
  mutate(mutate(fc.constantFrom(...VALID), nasty), nasty),
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
);

/** Byte sequences that are not UTF-8: lone continuation and lead bytes, overlongs, surrogates. */
const INVALID_UTF8 = [
  '\xff',
  '\x80',
  '\xc3',
  '\xc3\x28',
  '\xc0\xaf',
  '\xed\xa0\x80',
  '\xf4\x90\x80\x80',
  '\xe2\x82',
];

/** Valid bodies as UTF-8 bytes with bytes that are not UTF-8 inserted. */
const notUtf8: fc.Arbitrary<string> = mutate(
  fc.constantFrom(...VALID).map((b) => Buffer.from(b, 'utf8').toString('latin1')),
  fc.constantFrom(...INVALID_UTF8),
);

/** The media type a well-behaved client would send for `b`. */
function typeOf(b: string): string {
  const patch = b.includes('yang-patch');
  if (b.trimStart().startsWith('<')) return patch ? PATCH_XML : DATA_XML;
  return patch ? PATCH_JSON : DATA_JSON;
}

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Whole requests: any method, target, query and body; headers either those a client would send
 * for the body (so the request reaches the parsers and the datastore) or generated ones.
 */
export const request: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom(...METHODS),
    path: apiPath,
    query: fc.oneof({ arbitrary: fc.constant(''), weight: 2 }, { arbitrary: query, weight: 1 }),
    coherent: fc.boolean(),
    accept: fc.constantFrom(DATA_JSON, DATA_XML),
    headers,
    body: fc.oneof(
      { arbitrary: body.map((text) => ({ text, binary: false })), weight: 9 },
      { arbitrary: notUtf8.map((text) => ({ text, binary: true })), weight: 1 },
    ),
  })
  .map(({ method, path, query: q, coherent, accept, headers: h, body: { text: b, binary } }) => {
    // fetch refuses a body on GET and HEAD.
    const withBody = b !== undefined && method !== 'GET' && method !== 'HEAD';
    const chosen: Record<string, string> = coherent
      ? { accept, ...(withBody ? { 'content-type': typeOf(b) } : {}) }
      : h;
    return {
      method,
      path: path + q,
      headers: chosen,
      ...(withBody ? { body: b, ...(binary ? { binary } : {}) } : {}),
    };
  });
