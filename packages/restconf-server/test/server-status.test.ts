import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from './harness.js';
import { openStream } from './streams-helpers.js';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ serverStatus: true, metrics: true });
});
afterAll(() => gw.close());

describe('/server-status and /metrics', () => {
  test('server-status reports uptime, requests by status and NETCONF sessions', async () => {
    await gw.fetch('/restconf/yang-library-version');
    await gw.fetch('/restconf/data/example-jukebox:nothing');
    const r = await gw.fetch('/server-status');
    expect(r.status).toBe(200);
    const s = (await r.json()) as {
      'uptime-seconds': number;
      requests: { 'by-status': Record<string, number> };
      'active-streams': number;
      'netconf-sessions': { open: number };
    };
    expect(s['uptime-seconds']).toBeGreaterThanOrEqual(0);
    expect(s.requests['by-status']['200']).toBeGreaterThanOrEqual(1);
    expect(s.requests['by-status']['400']).toBeGreaterThanOrEqual(1);
    expect(s['active-streams']).toBe(0);
    expect(s['netconf-sessions'].open).toBeGreaterThanOrEqual(1);
  });

  test('server-status counts the event streams open', async () => {
    const activeStreams = async (): Promise<number> =>
      ((await (await gw.fetch('/server-status')).json()) as { 'active-streams': number })['active-streams'];
    const stream = await openStream(`${gw.url}/restconf/streams/json-NETCONF`);
    try {
      expect(await activeStreams()).toBe(1);
    } finally {
      stream.close();
    }
    // The server sees the client leave a moment later.
    let open = await activeStreams();
    for (let i = 0; i < 100 && open > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      open = await activeStreams();
    }
    expect(open).toBe(0);
  });

  test('metrics are in the Prometheus text format', async () => {
    await gw.fetch('/restconf/yang-library-version');
    const r = await gw.fetch('/metrics');
    expect(r.headers.get('content-type')).toContain('text/plain');
    const text = await r.text();
    expect(text).toMatch(/restconf_requests_total\{method="GET",status="200"\} \d+/);
    expect(text).toContain('restconf_netconf_sessions');
  });

  test('both are off unless asked for', async () => {
    const other = await startGateway();
    try {
      expect((await other.fetch('/server-status')).status).toBe(404);
      expect((await other.fetch('/metrics')).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('middleware', () => {
  test('paths outside RESTCONF go to next()', async () => {
    const http = createServer((req, res) =>
      gw.handler(req, res, () => {
        res.statusCode = 418;
        res.end('next');
      }),
    );
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      expect((await fetch(`${base}/app/page`)).status).toBe(418);
      expect((await fetch(`${base}/restconf/yang-library-version`)).status).toBe(200);
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
