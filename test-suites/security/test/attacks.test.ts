import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { updateFigures, writeFigures } from './figures.js';
import {
  DATA_JSON,
  DATA_XML,
  errorsBody,
  PATCH_JSON,
  PATCH_XML,
  type Server,
  startServer,
} from './harness.js';

// Issue 12: a corpus of XML and JSON attacks, each sent as a body of POST, PUT and PATCH to a
// data resource and as a YANG Patch; every one must get 400 (413 when it exceeds the body
// limit) with an ietf-restconf:errors body, and change nothing.
const JB = 'http://example.com/ns/example-jukebox';
const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
const MAX_BODY = 1024 * 1024;

const LAUGHS = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE lolz [',
  '  <!ENTITY lol "lol">',
  ...Array.from(
    { length: 9 },
    (_, i) => `  <!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
  ),
  ']>',
  `<artist xmlns="${JB}"><name>&lol9;</name></artist>`,
].join('\n');

/** XML bodies that attack the parser, by name. */
const XML_ATTACKS: Record<string, string> = {
  'billion laughs': LAUGHS,
  'external entity': `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><artist xmlns="${JB}"><name>&xxe;</name></artist>`,
  'external parameter entity': `<!DOCTYPE a [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p;]><artist xmlns="${JB}"><name>x</name></artist>`,
  'plain DOCTYPE': `<!DOCTYPE artist><artist xmlns="${JB}"><name>x</name></artist>`,
  'internal entity': `<!DOCTYPE a [<!ENTITY n "Evil">]><artist xmlns="${JB}"><name>&n;</name></artist>`,
  'deep nesting': `<artist xmlns="${JB}"><name>x</name>${'<a>'.repeat(10_000)}${'</a>'.repeat(10_000)}</artist>`,
  'unclosed deep nesting': `<artist xmlns="${JB}">${'<a>'.repeat(50_000)}`,
  'huge attribute': `<artist xmlns="${JB}" x="${'A'.repeat(900_000)}"><name>x</name></artist>`,
  'many attributes': `<artist xmlns="${JB}" ${Array.from({ length: 20_000 }, (_, i) => `a${i}="1"`).join(' ')}><name>x</name></artist>`,
  'processing instruction': `<?evil run="1"?><artist xmlns="${JB}"><name>x</name></artist>`,
  'processing instruction inside': `<artist xmlns="${JB}"><?evil run="1"?><name>x</name></artist>`,
  'unknown namespace prefix': `<artist xmlns="${JB}"><p:name>x</p:name></artist>`,
  'two roots': `<artist xmlns="${JB}"><name>x</name></artist><artist xmlns="${JB}"><name>y</name></artist>`,
  'CDATA trick': `<artist xmlns="${JB}"><name><![CDATA[</name>]]></name><name>y</name></artist>`,
  'body over the limit': `<artist xmlns="${JB}"><name>${'x'.repeat(MAX_BODY + 1)}</name></artist>`,
};

/** JSON bodies that attack the parser or the object model, by name. */
const JSON_ATTACKS: Record<string, string> = {
  'deep array nesting': `{"example-jukebox:artist":[{"name":"x","album":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`,
  'deep object nesting': `{"example-jukebox:artist":[{"name":"x","a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}]}`,
  '__proto__ key': '{"example-jukebox:artist":[{"name":"x","__proto__":{"polluted":true}}]}',
  '__proto__ at the top': '{"__proto__":{"polluted":true}}',
  'constructor key':
    '{"example-jukebox:artist":[{"name":"x","constructor":{"prototype":{"polluted":true}}}]}',
  'huge number': `{"example-jukebox:album":[{"name":"x","year":${'9'.repeat(10_000)}}]}`,
  'number overflowing uint16': '{"example-jukebox:album":[{"name":"x","year":1e400}]}',
  'huge string': `{"example-jukebox:artist":[{"name":"x","album":[{"name":"a","song":[{"name":"s","location":"${'x'.repeat(900_000)}"}]}]}]}`,
  'duplicate keys': '{"example-jukebox:artist":[{"name":"x","name":"y"}]}',
  'lone surrogate': '{"example-jukebox:artist":[{"name":"\\ud800"}]}',
  'trailing garbage': '{"example-jukebox:artist":[{"name":"x"}]} {}',
  'body over the limit': `{"example-jukebox:artist":[{"name":"${'x'.repeat(MAX_BODY + 1)}"}]}`,
};

/**
 * Attacks the gateway answers 2xx today, with the reason; they are counted as accepted in the
 * figures and only checked to be answered in time without a 5xx.
 */
const ACCEPTED: Record<string, string> = {
  'huge string': 'a YANG string without a length restriction is bounded only by the body limit',
};

/**
 * Attacks on a limit: nesting depth and attributes per element (the XML reader's 256) are answered
 * 400, or 413 too-big (RFC 8040 section 7).
 */
const LIMITS = new Set([
  'many attributes',
  'deep nesting',
  'unclosed deep nesting',
  'deep array nesting',
  'deep object nesting',
]);

const figures = { sent: 0, status400: 0, status413: 0, accepted: 0, other: 0, changed: 0 };
let s: Server;
beforeAll(async () => {
  s = await startServer({ maxBodyBytes: MAX_BODY });
});
afterAll(async () => {
  await s.close();
  if (updateFigures) {
    writeFigures(
      'attacks',
      [
        '### XML and JSON attack corpus',
        '',
        `${Object.keys(XML_ATTACKS).length} XML and ${Object.keys(JSON_ATTACKS).length} JSON attacks, each as POST, PUT and a YANG Patch value.`,
        '',
        '| requests sent | 400 | 413 | accepted (2xx, listed below) | any other status | datastore changed by a rejected request |',
        '| ---: | ---: | ---: | ---: | ---: | ---: |',
        `| ${figures.sent} | ${figures.status400} | ${figures.status413} | ${figures.accepted} | ${figures.other} | ${figures.changed} |`,
        '',
        ...Object.entries(ACCEPTED).map(([name, why]) => `- accepted: ${name} (${why})`),
      ].join('\n'),
    );
  }
});

/** Sends one attack; rejected ones must get a status of `allowed`, an errors body and change nothing. */
async function send(
  method: string,
  path: string,
  type: string,
  body: string,
  allowed: number[],
): Promise<void> {
  const before = await s.snapshot();
  const r = await s.fetch(path, { method, headers: { 'Content-Type': type, Accept: DATA_JSON }, body });
  const text = await r.text();
  figures.sent++;
  if (r.status === 400) figures.status400++;
  else if (r.status === 413) figures.status413++;
  else if (r.status < 300) figures.accepted++;
  else figures.other++;
  expect(r.status, text.slice(0, 300)).toBeOneOf(allowed);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  if (r.status < 400) return;
  const after = await s.snapshot();
  if (after !== before) figures.changed++;
  expect(errorsBody(text, r.headers.get('content-type'))).toBeDefined();
  expect(after).toBe(before);
}

/** The statuses an attack may get: 413 past the body limit, 400 or 413 on a depth limit, else 400. */
function allowedFor(name: string, body: string): number[] {
  if (body.length > MAX_BODY) return [413];
  if (ACCEPTED[name] !== undefined) return [200, 201, 204, 400];
  return LIMITS.has(name) ? [400, 413] : [400];
}

/** Wraps an attack body as the value of a YANG Patch edit, in the same encoding. */
function asPatch(body: string, xml: boolean): string {
  if (xml) {
    const value = body.replace(/^<\?xml[^>]*\?>/, '');
    const doctype = /^(<!DOCTYPE[\s\S]*?\]>|<!DOCTYPE[^>]*>)/.exec(value.trim())?.[0] ?? '';
    return `${doctype}<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>attack</patch-id><edit><edit-id>1</edit-id><operation>merge</operation><target>/artist=x</target><value>${value.trim().slice(doctype.length)}</value></edit></yang-patch>`;
  }
  return `{"ietf-yang-patch:yang-patch":{"patch-id":"attack","edit":[{"edit-id":"1","operation":"merge","target":"/artist=x","value":${body}}]}}`;
}

describe('XML attacks', () => {
  for (const [name, body] of Object.entries(XML_ATTACKS)) {
    const allowed = allowedFor(name, body);
    const verdict =
      ACCEPTED[name] === undefined
        ? `rejected with ${allowed.join(' or ')}`
        : 'answered in time without a 5xx';
    test(`${name} is ${verdict} by POST, PUT and YANG Patch`, async () => {
      await send('POST', LIBRARY, DATA_XML, body, allowed);
      await send('PUT', `${LIBRARY}/artist=x`, DATA_XML, body, allowed);
      await send('PATCH', LIBRARY, PATCH_XML, asPatch(body, true), allowedFor(name, asPatch(body, true)));
    });
  }
});

describe('JSON attacks', () => {
  for (const [name, body] of Object.entries(JSON_ATTACKS)) {
    const allowed = allowedFor(name, body);
    const verdict =
      ACCEPTED[name] === undefined
        ? `rejected with ${allowed.join(' or ')}`
        : 'answered in time without a 5xx';
    test(`${name} is ${verdict} by POST, PUT and YANG Patch`, async () => {
      await send('POST', LIBRARY, DATA_JSON, body, allowed);
      await send('PUT', `${LIBRARY}/artist=x`, DATA_JSON, body, allowed);
      await send('PATCH', LIBRARY, PATCH_JSON, asPatch(body, false), allowedFor(name, asPatch(body, false)));
    });
  }
});
