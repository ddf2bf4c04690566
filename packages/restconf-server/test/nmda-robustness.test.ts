import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Gateway, JUKEBOX, json, startGateway } from './harness.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ withNmda: true });
  await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
});
afterAll(() => gw.close());

const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const base = fc.constantFrom(
  '/restconf/ds',
  '/restconf/ds/',
  '/restconf/ds/ietf-datastores:',
  '/restconf/ds/ietf-datastores:running',
  '/restconf/ds/ietf-datastores:candidate/example-jukebox:jukebox',
  '/restconf/ds/ietf-datastores:operational/example-jukebox:jukebox/library/artist=',
  '/restconf/ds/ietf-datastores:intended/ietf-interfaces:interfaces/interface=',
);

test('any /ds request gets a status below 500 and, on errors, an ietf-restconf:errors body', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...methods),
      base,
      fc.string({ maxLength: 40 }),
      fc.constantFrom('', '?with-origin', '?depth=1', '?fields=a(b', '?with-defaults=trim', '?content=all'),
      fc.constantFrom('application/yang-data+json', 'application/yang-data+xml', 'text/plain'),
      fc.string({ maxLength: 200 }),
      async (method, path, tail, query, type, body) => {
        const url = path + encodeURI(tail).replace(/[?#]/g, '') + query;
        const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const r = await gw.fetch(url, {
          method,
          headers: hasBody ? { 'content-type': type } : {},
          ...(hasBody ? { body } : {}),
        });
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.status).toBeLessThan(500);
        const text = await r.text();
        if (r.status >= 400 && method !== 'HEAD') expect(text).toMatch(/ietf-restconf:errors|<errors xmlns=/);
        if (r.status < 300 && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
          await gw.fetch('/restconf/data', json('PUT', JUKEBOX));
        }
      },
    ),
    { numRuns: 150 },
  );
});
