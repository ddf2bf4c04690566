import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, sendJson, startServer } from './harness.js';

// RFC 8040 section 3.5.4: a leaf with a default and no value answers the default in use.
const IF = '/restconf/data/ietf-interfaces:interfaces';
let s: Server;
beforeAll(async () => {
  s = await startServer({
    path: [path.resolve(import.meta.dirname, '../../../yang/rfc7223')],
    module: ['ietf-interfaces', 'iana-if-type'],
    initialData: '',
  });
  const eth0 = { 'ietf-interfaces:interface': [{ name: 'eth0', type: 'iana-if-type:ethernetCsmacd' }] };
  expect((await s.fetch(IF, sendJson('POST', eth0))).status).toBe(201);
});
afterAll(() => s.close());

describe('GET of a leaf with a default and no value', () => {
  test('answers the default in use in JSON', async () => {
    const r = await s.fetch(`${IF}/interface=eth0/enabled`, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ 'ietf-interfaces:enabled': true });
  });

  test('answers the default in use in XML', async () => {
    const r = await s.fetch(`${IF}/interface=eth0/enabled`, { headers: { Accept: DATA_XML } });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(
      /<enabled xmlns="urn:ietf:params:xml:ns:yang:ietf-interfaces">true<\/enabled>/,
    );
  });

  test('is 404 when the list entry holding the leaf is absent', async () => {
    const r = await s.fetch(`${IF}/interface=nope/enabled`, { headers: { Accept: DATA_JSON } });
    expect(r.status).toBe(404);
  });
});
