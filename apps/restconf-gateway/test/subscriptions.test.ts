import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { listen } from './event-stream.js';

// The requests of packages/restconf-server/src/subscriptions/README.md, against the gateway
// started with its default options (no --module).
const JSON_DATA = 'application/yang-data+json';
const SN = 'ietf-subscribed-notifications';

let gw: Gateway;
beforeAll(async () => {
  gw = await startGateway({ port: 0 }, { logger: pino({ level: 'silent' }) });
});
afterAll(() => gw.close());

function operation(name: string, input: unknown): Promise<Response> {
  return fetch(`${gw.url}/restconf/operations/${SN}:${name}`, {
    method: 'POST',
    headers: { 'Content-Type': JSON_DATA, Accept: JSON_DATA },
    body: JSON.stringify({ [`${SN}:input`]: input }),
  });
}

function event(severity: string): string {
  return `<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>${severity}</severity></event>`;
}

describe('RFC 8650 subscriptions with the default options', () => {
  test('establish-subscription answers the id and the ietf-restconf-subscribed-notifications uri', async () => {
    const r = await operation('establish-subscription', {
      stream: 'NETCONF',
      'stream-xpath-filter': '/example-mod:event[example-mod:severity="major"]',
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, { id: number }>;
    const { id } = body[`${SN}:output`]!;
    expect(body).toEqual({
      [`${SN}:output`]: {
        id,
        'ietf-restconf-subscribed-notifications:uri': `${gw.url}/restconf/subscriptions/${id}`,
      },
    });
  });

  test('a GET on the uri delivers the events the filter selects, then subscription-modified after a modify', async () => {
    const r = await operation('establish-subscription', {
      stream: 'NETCONF',
      'stream-xpath-filter': '/example-mod:event[example-mod:severity="major"]',
    });
    const output = ((await r.json()) as Record<string, Record<string, unknown>>)[`${SN}:output`]!;
    const uri = output['ietf-restconf-subscribed-notifications:uri'] as string;
    const stream = await listen(uri);
    gw.backend.netconf!.publish(event('minor'));
    gw.backend.netconf!.publish(event('major'));
    const first = await stream.until(/"severity":"major"/);
    expect(first).not.toContain('"severity":"minor"');
    const modify = await operation('modify-subscription', {
      id: output.id,
      'stream-xpath-filter': '/example-mod:event[example-mod:severity="critical"]',
    });
    expect(modify.status).toBe(204);
    const modified = await stream.until(/subscription-modified/);
    await stream.close();
    expect(modified).toContain(`"ietf-restconf-subscribed-notifications:uri":"${uri}"`);
  });

  test('a YANG Push on-change subscription is established with a uri', async () => {
    const r = await operation('establish-subscription', {
      'ietf-yang-push:datastore': 'ietf-datastores:running',
      'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox',
      'ietf-yang-push:on-change': { 'dampening-period': 10 },
    });
    expect(r.status).toBe(200);
    const output = ((await r.json()) as Record<string, Record<string, unknown>>)[`${SN}:output`]!;
    expect(output['ietf-restconf-subscribed-notifications:uri']).toBe(
      `${gw.url}/restconf/subscriptions/${output.id}`,
    );
  });
});
