import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFramer, NetconfError } from '@yangkit/netconf-client';
import {
  parseApiPath,
  parseQuery,
  parseRequest,
  RestconfUriError,
  resolveApiPath,
} from '@yangkit/restconf-uri';
import { createSseParser, SseError } from '@yangkit/sse-stream';
import { readXml, XmlError } from '@yangkit/xml';
import { CodecError, decodeJson } from '@yangkit/yang-json-codec';
import { parseYangPatch, pathSchemaOf, YangPatchError } from '@yangkit/yang-patch';
import { parseModule, type SchemaTree, YangSchemaError } from '@yangkit/yang-schema';
import { compileXPath, parseXPath, printXPath, XPathError } from '@yangkit/yang-xpath';
import fc from 'fast-check';
import { mutated, nested, splits, tokenSoup } from './mutate.js';

/**
 * One in-process fuzz target: a parser of the project fed generated input. Inputs are JSON values,
 * so a crash is kept as a corpus file and replayed as it was found.
 */
export interface ParserTarget {
  readonly name: string;
  /** What is parsed, for the report. */
  readonly description: string;
  readonly input: fc.Arbitrary<unknown>;
  /** Parses one input; throws what the parser throws. */
  run(input: unknown, schema: SchemaTree): void;
  /** The package's own typed errors: anything else thrown is a crash. */
  expected(error: unknown): boolean;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JB = 'http://example.com/ns/example-jukebox';
const EXAMPLE_YANG = path.resolve(HERE, '../../../yang/examples');

/** A byte stream given as text whose characters are bytes (0-255), as a JSON-safe corpus value. */
function binary(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

function bytesOf(chunk: string): Buffer {
  return Buffer.from(chunk, 'latin1');
}

const XML_SEEDS = [
  `<artist xmlns="${JB}"><name>Fuzz</name></artist>`,
  `<jukebox xmlns="${JB}"><library><artist><name>A&amp;B</name><album><name>X</name><year>2000</year></album></artist></library></jukebox>`,
  `<a:x xmlns:a="urn:a" a:attr='v' b="&#x41;&#65;&lt;&gt;&quot;&apos;"><![CDATA[<not>]]><!-- c --><y/></a:x>`,
  `<?xml version="1.0" encoding="UTF-8"?>\n<rpc message-id="1" xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><get/></rpc>`,
];
const XML_TOKENS = [
  '<',
  '</',
  '>',
  '/>',
  '=',
  '"',
  "'",
  'xmlns',
  'xmlns:p',
  ':',
  'p:',
  '&amp;',
  '&lt;',
  '&#',
  '&#x',
  '&#xD800;',
  '&#0;',
  '&#1114112;',
  '&ent;',
  ';',
  '<!DOCTYPE x [<!ENTITY e "v">]>',
  '<!ENTITY',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?',
  '?>',
  '<?xml version="1.0"?>',
  'a',
  'name',
  '\u0000',
  '\uFFFE',
  '\uD800',
  '\u00e9',
];

const JSON_SEEDS = [
  { 'example-jukebox:jukebox': { library: { artist: [{ name: 'A', album: [{ name: 'B', year: 2000 }] }] } } },
  { 'example-jukebox:jukebox': { player: { gap: '0.5' } } },
  {
    'ietf-restconf:data': { 'example-jukebox:jukebox': { playlist: [{ name: 'p', song: [{ index: 1 }] }] } },
  },
  { 'example-mod:top': { '@': { 'ietf-netconf-with-defaults:default': true } } },
].map((v) => JSON.stringify(v));
const JSON_TOKENS = [
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '"',
  '"example-jukebox:',
  '"@"',
  '"@name"',
  'null',
  'true',
  '1e999',
  '-0',
  '"\\ud800"',
  '"__proto__"',
  '[null]',
  '1.5',
  '"ietf-restconf:data"',
];

/** JSON documents for the example modules: module-qualified names over arbitrary JSON values. */
const jsonDocument = fc
  .tuple(
    fc.constantFrom(
      'example-jukebox:jukebox',
      'example-jukebox:artist',
      'ietf-restconf:data',
      'example-ops:input',
      'example-mod:top',
      'ietf-subscribed-notifications:input',
    ),
    fc.json({ maxDepth: 6 }),
  )
  .map(([name, value]) => `{"${name}":${value}}`);

const KINDS = ['data', 'config', 'resource', 'rpc-input', 'notification', 'yang-data'] as const;

const PATH_SEEDS = [
  'example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light/song=Rope',
  'example-jukebox:jukebox/playlist=Foo-One/song=1',
  'example-actions:interfaces/interface=eth0/reset',
  'ietf-restconf-monitoring:restconf-state/streams/stream=NETCONF',
  'example-jukebox:jukebox/library/artist=a,b,c',
];
const PATH_TOKENS = ['%', '%2', '%zz', '%00', '%2F', '%2C', '=', ',', '/', '//', ':', '..', '.', '*', "'"];

const QUERY_SEEDS = [
  'depth=2&content=config&with-defaults=report-all',
  'fields=library/artist(name;album(name;year))',
  'insert=before&point=/example-jukebox:jukebox/playlist=p/song=1',
  'filter=/example-jukebox:jukebox&start-time=2016-01-01T00:00:00Z&stop-time=2017-01-01T00:00:00.5%2B01:00',
];
const QUERY_TOKENS = ['&', '=', ';', '(', ')', '/', ':', '%', '%26', 'depth', 'fields', 'filter', 'content'];

const PATCH_SEEDS = [
  JSON.stringify({
    'ietf-yang-patch:yang-patch': {
      'patch-id': 'p',
      edit: [
        {
          'edit-id': 'e1',
          operation: 'insert',
          target: '/song=5',
          point: '/song=1',
          where: 'after',
          value: { 'example-jukebox:song': [{ index: 5, id: 'x' }] },
        },
        { 'edit-id': 'e2', operation: 'move', target: '/song=1', where: 'last' },
        { 'edit-id': 'e3', operation: 'remove', target: '/song=2' },
      ],
    },
  }),
  `<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>p</patch-id><edit><edit-id>e1</edit-id><operation>merge</operation><target>/song=1</target><value><song xmlns="${JB}"><index>1</index><id>y</id></song></value></edit></yang-patch>`,
];
/** Well-formed YANG Patch JSON bodies of generated edits: what reaches the planner and the codec. */
const patchJson = fc
  .array(
    fc.record(
      {
        'edit-id': fc.constantFrom('e1', 'e2', 'e1', ''),
        operation: fc.constantFrom('create', 'delete', 'insert', 'merge', 'move', 'replace', 'remove', 'x'),
        target: fc.oneof(
          fc.constantFrom('/song=1', '/song=5', '/', '/name', '/song=a', '/x:y', '/song=1/id', '/song'),
          fc.string({ maxLength: 12 }),
        ),
        point: fc.constantFrom('/song=1', '/song=9', '', 'x'),
        where: fc.constantFrom('before', 'after', 'first', 'last', 'x'),
        value: fc.oneof(
          fc.constantFrom(
            { 'example-jukebox:song': [{ index: 5, id: 'x' }] },
            { 'example-jukebox:song': [{ index: 1 }, { index: 1 }] },
            { 'example-jukebox:name': 'p' },
            { 'example-jukebox:playlist': [{ name: 'Foo-One' }] },
          ),
          fc.dictionary(fc.constantFrom('example-jukebox:song', 'example-jukebox:id', 'x'), fc.jsonValue()),
        ),
      },
      { requiredKeys: ['edit-id', 'operation', 'target'] },
    ),
    { maxLength: 4 },
  )
  .map((edit) => JSON.stringify({ 'ietf-yang-patch:yang-patch': { 'patch-id': 'p', edit } }));

const PATCH_TOKENS = [
  ...JSON_TOKENS,
  ...XML_TOKENS.slice(0, 12),
  '"edit"',
  '"value"',
  '"target"',
  '/song=',
  '/',
];

const XPATH_SEEDS = [
  "/jbox:jukebox/jbox:library/jbox:artist[jbox:name='Foo']/jbox:album[position() = last()]",
  'count(../song) > 1 and not(current()/index = 0) or string-length(concat("a", \'b\')) mod 2',
  'derived-from-or-self(../type, "if:ethernet") | re-match(., "[a-z]+") | deref(.)/..',
  '-(1 div 0) * 2 - -3 != //x[@a][1]/following-sibling::*/ancestor-or-self::node()',
];
const XPATH_TOKENS = [
  '/',
  '//',
  '[',
  ']',
  '(',
  ')',
  '@',
  '*',
  '.',
  '..',
  '::',
  'child::',
  'ancestor::',
  ',',
  '|',
  '=',
  '!=',
  '<=',
  'and',
  'or',
  'div',
  'mod',
  '-',
  '$v',
  '"s"',
  "'",
  '1.5',
  'jbox:',
  'current()',
  'text()',
  'node()',
  'count(',
  'substring(',
  'translate(',
];
const XPATH_PREFIXES = { jbox: JB, if: 'urn:ietf:params:xml:ns:yang:ietf-interfaces' };

/** The example modules' text: the seeds of the YANG parser. */
function yangSeeds(): string[] {
  return readdirSync(EXAMPLE_YANG)
    .filter((f) => f.endsWith('.yang'))
    .map((f) => readFileSync(path.join(EXAMPLE_YANG, f), 'utf8'));
}
const YANG_TOKENS = [
  '{',
  '}',
  ';',
  '"',
  "'",
  '+',
  '/*',
  '*/',
  '//',
  '\\',
  'container x',
  'leaf y { type string; }',
  'type union { type int8; type string { pattern "[a-"; } }',
  'range "1..max|min..0";',
  'grouping g { uses g; }',
  'uses g;',
  'augment "/x:y" { leaf z { type empty; } }',
  'must "../a";',
  'when "1";',
  'import',
  'prefix p;',
  'revision 2020-13-45;',
  'ext:foo "bar";',
  'deviation',
  'typedef t { type t; }',
];

const FRAMING_TOKENS = [
  ']]>]]>',
  ']]>',
  ']]',
  '\n#',
  '\n##\n',
  '\n#1\n',
  '\n#4294967296\n',
  '\n#0\n',
  '#',
  '\n',
  '<rpc/>',
  '<hello/>',
];

const SSE_TOKENS = [
  'data:',
  'data: x',
  'event:',
  'id:',
  'id: \u0000',
  'retry:',
  'retry: 1000',
  'retry: 99999999999999999999',
  ':',
  ': comment',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  '\uFEFF',
  '\u00e9',
  '\u{1F600}',
];

/** The parsers the run fuzzes in process. */
export const PARSER_TARGETS: readonly ParserTarget[] = [
  {
    name: 'xml',
    description: 'XML reader (@yangkit/xml `readXml`)',
    input: fc.oneof(
      { arbitrary: mutated(XML_SEEDS, XML_TOKENS), weight: 10 },
      { arbitrary: tokenSoup(XML_TOKENS, 60), weight: 10 },
      { arbitrary: nested('<a>', '</a>'), weight: 1 },
      { arbitrary: nested('<a x="1">', ''), weight: 1 },
    ),
    run: (input) => void readXml(input as string, { maxDepth: 128 }),
    expected: (e) => XmlError.isInstance(e),
  },
  {
    name: 'json',
    description: 'JSON decoder (yang-json-codec `decodeJson`), every document kind',
    input: fc.tuple(
      fc.oneof(
        { arbitrary: jsonDocument, weight: 10 },
        { arbitrary: mutated(JSON_SEEDS, JSON_TOKENS), weight: 10 },
        { arbitrary: tokenSoup(JSON_TOKENS, 60), weight: 5 },
        { arbitrary: nested('{"example-jukebox:jukebox":{"library":', '}}'), weight: 1 },
        {
          arbitrary: nested('[', ']').map(
            (a) => `{"ietf-subscribed-notifications:input":{"stream-subtree-filter":{"a":${a}}}}`,
          ),
          weight: 1,
        },
      ),
      fc.constantFrom(...KINDS),
    ),
    run: (input, schema) => {
      const [text, kind] = input as [string, (typeof KINDS)[number]];
      const operation =
        kind === 'rpc-input' ? { operation: 'ietf-subscribed-notifications:establish-subscription' } : {};
      decodeJson(schema, text, { kind, ...operation });
    },
    expected: (e) => CodecError.isInstance(e),
  },
  {
    name: 'api-path',
    description:
      'request target, api-path and query (restconf-uri `parseRequest`, `parseApiPath`, `resolveApiPath`, `parseQuery`)',
    input: fc.tuple(
      fc.oneof(mutated(PATH_SEEDS, PATH_TOKENS), tokenSoup(PATH_TOKENS, 30)),
      fc.oneof(mutated(QUERY_SEEDS, QUERY_TOKENS), tokenSoup(QUERY_TOKENS, 30)),
      fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    ),
    run: (input, schema) => {
      const [p, q, method] = input as [string, string, string];
      try {
        parseRequest(`/restconf/data/${p}?${q}`, { method });
      } catch (error) {
        if (!RestconfUriError.isInstance(error)) throw error;
      }
      const parsed = parseApiPath(p);
      resolveApiPath(parsed, pathSchemaOf(schema));
      parseQuery(q, { method, resource: 'datastore' });
    },
    expected: (e) => RestconfUriError.isInstance(e),
  },
  {
    name: 'yang-patch',
    description: 'YANG Patch bodies in JSON and XML (yang-patch `parseYangPatch`)',
    input: fc.tuple(
      fc.oneof(patchJson, mutated(PATCH_SEEDS, PATCH_TOKENS), tokenSoup(PATCH_TOKENS, 60)),
      fc.constantFrom(
        '/example-jukebox:jukebox/playlist=Foo-One',
        '/example-jukebox:jukebox',
        '/',
        '/example-jukebox:jukebox/library/artist=a',
      ),
    ),
    run: (input, schema) => {
      const [body, target] = input as [string, string];
      parseYangPatch(schema, body, { encoding: body.trimStart().startsWith('<') ? 'xml' : 'json', target });
    },
    // A value inside an edit is decoded by the codec, whose errors it reports as they are.
    expected: (e) =>
      YangPatchError.isInstance(e) || CodecError.isInstance(e) || RestconfUriError.isInstance(e),
  },
  {
    name: 'xpath',
    description: 'XPath 1.0 with YANG functions (yang-xpath `parseXPath`, `compileXPath`, `printXPath`)',
    input: fc.oneof(
      { arbitrary: mutated(XPATH_SEEDS, XPATH_TOKENS), weight: 10 },
      { arbitrary: tokenSoup(XPATH_TOKENS, 40), weight: 10 },
      { arbitrary: nested('(', ')', '1'), weight: 1 },
    ),
    run: (input) => {
      const text = input as string;
      const printed = printXPath(parseXPath(text));
      // What the printer writes must parse again.
      parseXPath(printed);
      compileXPath(text, { prefixes: XPATH_PREFIXES });
    },
    expected: (e) => XPathError.isInstance(e),
  },
  {
    name: 'yang',
    description: 'YANG module text (yang-schema `parseModule`)',
    input: fc.oneof(
      { arbitrary: mutated(yangSeeds(), YANG_TOKENS), weight: 10 },
      {
        arbitrary: tokenSoup(YANG_TOKENS, 40).map(
          (body) => `module m { namespace "urn:m"; prefix m; ${body} }`,
        ),
        weight: 10,
      },
      {
        arbitrary: nested('container c { ', '}').map(
          (body) => `module m { namespace "urn:m"; prefix m; ${body} }`,
        ),
        weight: 1,
      },
    ),
    run: (input) => void parseModule(input as string),
    expected: (e) => YangSchemaError.isInstance(e),
  },
  {
    name: 'netconf-framing',
    description:
      'NETCONF 1.0 end-of-message and 1.1 chunked framing (netconf-client `createFramer`), split at random points',
    input: fc.tuple(
      fc.constantFrom('eom', 'chunked'),
      splits(tokenSoup([...FRAMING_TOKENS, '\u00e9', '\u{1F600}'], 30).map(binary)),
    ),
    run: (input) => {
      const [mode, chunks] = input as ['eom' | 'chunked', string[]];
      const framer = createFramer({
        mode,
        maxMessageBytes: 4096,
        onMessage: () => undefined,
        onError: (error) => {
          if (!NetconfError.isInstance(error)) throw error;
        },
      });
      for (const chunk of chunks) framer.feed(bytesOf(chunk));
    },
    expected: (e) => NetconfError.isInstance(e),
  },
  {
    name: 'sse',
    description: 'Server-Sent Events parser (sse-stream `createSseParser`), split at random points',
    input: splits(tokenSoup(SSE_TOKENS, 40).map(binary)),
    run: (input) => {
      const parser = createSseParser({ maxEventSize: 4096, onEvent: () => undefined });
      for (const chunk of input as string[]) parser.feed(bytesOf(chunk));
      parser.end();
    },
    expected: (e) => SseError.isInstance(e),
  },
];

/** The target named `name`. */
export function parserTarget(name: string): ParserTarget {
  const t = PARSER_TARGETS.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no fuzz target ${name}`);
  return t;
}
