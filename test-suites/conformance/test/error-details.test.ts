import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsOf, type Server, sendJson, sendXml, startServer } from './harness.js';

// RFC 8040 section 7.1: an error names what is wrong. A leafref to a missing instance carries the
// value in error-info bad-value (RFC 7950 section 15.5); an action invoked on a list entry that
// does not exist (RFC 8040 section 3.6) names the action and, in error-path, the missing entry.
const DEVICES = '/restconf/data/example-leafref:devices';
const INTERFACES = '/restconf/data/example-actions:interfaces';
let s: Server;
beforeAll(async () => {
  s = await startServer({
    path: [path.resolve(import.meta.dirname, 'fixtures')],
    module: ['example-leafref', 'example-actions'],
  });
  const devices = await s.fetch(
    DEVICES,
    sendJson('PUT', { 'example-leafref:devices': { device: [{ name: 'a' }] } }),
  );
  expect(devices.status).toBe(201);
  const interfaces = await s.fetch(
    INTERFACES,
    sendJson('PUT', { 'example-actions:interfaces': { interface: [{ name: 'eth0' }] } }),
  );
  expect(interfaces.status).toBe(201);
});
afterAll(() => s.close());

describe('a leafref to a missing instance', () => {
  test('is 409 data-missing with error-info bad-value naming the value, in JSON', async () => {
    const r = await s.fetch(`${DEVICES}/primary`, sendJson('PUT', { 'example-leafref:primary': 'nope' }));
    expect(r.status).toBe(409);
    const [error] = await errorsOf(r);
    expect(error).toMatchObject({
      'error-tag': 'data-missing',
      'error-app-tag': 'instance-required',
      'error-path': '/example-leafref:devices/primary',
      'error-info': { 'bad-value': 'nope' },
    });
  });

  test('is 409 data-missing with error-info bad-value naming the value, in XML', async () => {
    const r = await s.fetch(
      DEVICES,
      sendXml('PATCH', '<devices xmlns="urn:example:leafref"><primary>nope</primary></devices>', {
        Accept: DATA_XML,
      }),
    );
    expect(r.status).toBe(409);
    const body = await r.text();
    expect(body).toContain('<error-app-tag>instance-required</error-app-tag>');
    expect(body).toContain('<error-info><bad-value>nope</bad-value></error-info>');
  });
});

describe('an action on a missing list entry', () => {
  test('is 409 data-missing naming the action and, in error-path, the missing entry, in JSON', async () => {
    const r = await s.fetch(
      `${INTERFACES}/interface=eth9/reset`,
      sendJson('POST', { 'example-actions:input': { delay: 0 } }, { Accept: DATA_JSON }),
    );
    expect(r.status).toBe(409);
    const [error] = await errorsOf(r);
    expect(error).toMatchObject({
      'error-tag': 'data-missing',
      'error-path': "/example-actions:interfaces/interface[name='eth9']",
    });
    expect(error?.['error-message']).toContain('"reset"');
    expect(error?.['error-message']).not.toContain('"action"');
  });

  test('is 409 data-missing naming the action and, in error-path, the missing entry, in XML', async () => {
    const r = await s.fetch(`${INTERFACES}/interface=eth9/get-last-reset-time`, {
      method: 'POST',
      headers: { Accept: DATA_XML },
    });
    expect(r.status).toBe(409);
    const body = await r.text();
    expect(body).toMatch(
      /<error-path xmlns:act="https:\/\/example.com\/ns\/example-actions">\/act:interfaces\/act:interface\[act:name='eth9'\]<\/error-path>/,
    );
    expect(body).toContain('"get-last-reset-time"');
  });
});
