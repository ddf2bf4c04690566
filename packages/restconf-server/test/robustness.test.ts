import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { netconfErrorPath } from '../src/error-body.js';
import { exampleSchema, type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway();
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const pathPart = fc.constantFrom(
  '/restconf',
  '/restconf/data',
  '/restconf/data/example-jukebox:jukebox',
  '/restconf/data/example-jukebox:jukebox/library/artist=',
  '/restconf/operations/',
  '/restconf/yang/',
  '/.well-known/host-meta',
);

test('any request gets a status and, on errors, an ietf-restconf:errors body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...methods),
      pathPart,
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '?depth=2', '?fields=a(b', '?content=x', '?insert=first'),
      fc.constantFrom(
        'application/yang-data+json',
        'application/yang-data+xml',
        'application/yang-patch+json',
        'text/plain',
      ),
      fc.string({ maxLength: 200 }),
      async (method, base, tail, query, type, body) => {
        const path = base + encodeURI(tail).replace(/[?#]/g, '') + query;
        const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const r = await gw.fetch(path, {
          method,
          headers: hasBody ? { 'content-type': type } : {},
          ...(hasBody ? { body } : {}),
        });
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(600);
        expect(r.status).not.toBe(500);
        const text = await r.text();
        if (r.status >= 400 && method !== 'HEAD')
          expect(text).toMatch(/ietf-restconf:errors|<errors xmlns=|yang-patch-status/);
        // Restore the data whatever the request did.
        if (r.status < 300 && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
          await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('netconfErrorPath never throws and keeps the XML form', async () => {
  const schema = await exampleSchema();
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), (xml) => {
      const forms = netconfErrorPath(xml, schema);
      expect(xml.endsWith(forms.xml)).toBe(true);
    }),
  );
});

test('netconfErrorPath turns prefixes into module names where the module changes', async () => {
  const schema = await exampleSchema();
  expect(netconfErrorPath("/jbox:jukebox/jbox:library/jbox:artist[jbox:name='a:b']", schema).json).toBe(
    "/example-jukebox:jukebox/library/artist[name='a:b']",
  );
});

test('netconfErrorPath keeps only the data path of an error inside edit-config', async () => {
  const schema = await exampleSchema();
  const forms = netconfErrorPath(
    '/nc:rpc/nc:edit-config/nc:config/jbox:jukebox/jbox:player/jbox:gap',
    schema,
  );
  expect(forms.xml).toBe('/jbox:jukebox/jbox:player/jbox:gap');
  expect(forms.json).toBe('/example-jukebox:jukebox/player/gap');
});

test('netconfErrorPath keeps only the data path of an error inside the source of copy-config', async () => {
  const schema = await exampleSchema();
  const forms = netconfErrorPath(
    '/nc:rpc/nc:copy-config/nc:source/nc:config/jbox:jukebox/jbox:player/jbox:gap',
    schema,
  );
  expect(forms.xml).toBe('/jbox:jukebox/jbox:player/jbox:gap');
  expect(forms.json).toBe('/example-jukebox:jukebox/player/gap');
});

test('netconfErrorPath writes module names for the prefixes of a path that names no schema node', async () => {
  const schema = await exampleSchema();
  const forms = netconfErrorPath("/jbox:jukebox/jbox:nothing[jbox:x='jbox:y']", schema);
  expect(forms.json).toBe("/example-jukebox:jukebox/example-jukebox:nothing[example-jukebox:x='jbox:y']");
  expect(forms.namespaces).toEqual({ jbox: 'http://example.com/ns/example-jukebox' });
});
