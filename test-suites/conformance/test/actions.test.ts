import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, type Server, sendJson, startServer } from './harness.js';

// The RFC 8040 example actions (Appendix A.2, example-actions) over HTTP against the gateway.
const INTERFACES = '/restconf/data/example-actions:interfaces';
let s: Server;
beforeAll(async () => {
  s = await startServer();
  const r = await s.fetch(
    INTERFACES,
    sendJson('PUT', { 'example-actions:interfaces': { interface: [{ name: 'eth0' }] } }),
  );
  expect(r.status).toBeLessThan(300);
});
afterAll(() => s.close());

describe('example-actions get-last-reset-time', () => {
  test('an interface never reset answers the last reboot time of the device', async () => {
    const r = await s.fetch(`${INTERFACES}/interface=eth0/get-last-reset-time`, {
      method: 'POST',
      headers: { Accept: DATA_JSON },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { 'example-actions:output': { 'last-reset': string } };
    // The device (the embedded NETCONF server) last rebooted when it started.
    const stats = await s.fetch('/restconf/data/ietf-netconf-monitoring:netconf-state/statistics', {
      headers: { Accept: DATA_JSON },
    });
    const started = ((await stats.json()) as Record<string, Record<string, string>>)[
      'ietf-netconf-monitoring:statistics'
    ]!['netconf-start-time'];
    expect(body['example-actions:output']['last-reset']).toBe(started);
  });

  test('after a reset it answers the time of that reset', async () => {
    const before = Date.now();
    const reset = await s.fetch(
      `${INTERFACES}/interface=eth0/reset`,
      sendJson('POST', { 'example-actions:input': { delay: 0 } }),
    );
    expect(reset.status).toBe(204);
    const r = await s.fetch(`${INTERFACES}/interface=eth0/get-last-reset-time`, { method: 'POST' });
    const body = (await r.json()) as { 'example-actions:output': { 'last-reset': string } };
    expect(Date.parse(body['example-actions:output']['last-reset'])).toBeGreaterThanOrEqual(before);
  });
});
