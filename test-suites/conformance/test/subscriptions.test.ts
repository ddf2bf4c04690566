import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, sendJson, startServer } from './harness.js';

// RFC 8650 subscriptions (the spec's "Subscription establishment") over HTTP against the gateway.
const OPS = '/restconf/operations/ietf-subscribed-notifications';
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

type Output = Record<string, unknown>;

async function establish(input: Record<string, unknown>, accept = DATA_JSON): Promise<Response> {
  return s.fetch(
    `${OPS}:establish-subscription`,
    sendJson('POST', { 'ietf-subscribed-notifications:input': input }, { Accept: accept }),
  );
}

async function remove(id: unknown): Promise<void> {
  const r = await s.fetch(
    `${OPS}:delete-subscription`,
    sendJson('POST', { 'ietf-subscribed-notifications:input': { id } }),
  );
  expect(r.status).toBe(204);
}

/** The first SSE event of a subscription after `trigger` runs. */
async function firstEvent(uri: string, trigger: () => Promise<void>): Promise<string> {
  const controller = new AbortController();
  const r = await fetch(uri, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
  expect(r.status).toBe(200);
  await trigger();
  const reader = r.body!.getReader();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  controller.abort();
  return text;
}

describe('establish-subscription (RFC 8639, RFC 8650)', () => {
  test('encoding encode-json, bare or module-qualified, is accepted', async () => {
    for (const encoding of ['encode-json', 'ietf-subscribed-notifications:encode-json']) {
      const r = await establish({ stream: 'NETCONF', encoding });
      expect(r.status).toBe(200);
      await remove(((await r.json()) as Record<string, Output>)['ietf-subscribed-notifications:output']!.id);
    }
  });

  test('encode-json delivers JSON notifications though the request asked for XML output', async () => {
    const r = await establish({ stream: 'NETCONF', encoding: 'encode-json' }, DATA_XML);
    const text = await r.text();
    const uri = /<uri [^>]*>([^<]+)<\/uri>/.exec(text)![1]!;
    const event = await firstEvent(uri, async () => {
      const edit = await s.fetch(
        '/restconf/data/example-jukebox:jukebox/player/gap',
        sendJson('PUT', { 'example-jukebox:gap': '0.3' }),
      );
      expect(edit.status).toBeLessThan(300);
    });
    expect(event).toMatch(/^data: \{"ietf-restconf:notification":\{"eventTime":/m);
  });

  test('the output holds id and uri: ietf-distributed-notif augments no establish-subscription output', async () => {
    const r = await establish({ stream: 'NETCONF' });
    const output = ((await r.json()) as Record<string, Output>)['ietf-subscribed-notifications:output']!;
    expect(Object.keys(output).sort()).toEqual(['id', 'ietf-restconf-subscribed-notifications:uri']);
    await remove(output.id);
  });
});

// draft-ietf-netconf-distributed-notif: the gateway's embedded server is one publisher, id 1.
describe('message-publisher-id (ietf-distributed-notif)', () => {
  const PUBLISHER = 'ietf-distributed-notif:message-publisher-id';
  const onChange = {
    'ietf-yang-push:datastore': 'ietf-datastores:running',
    'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox/player/gap',
    'ietf-yang-push:on-change': { 'dampening-period': 0 },
  };

  /** The notification of one SSE event's `data:` lines. */
  function notificationOf(event: string): Record<string, Record<string, unknown>> {
    const n = JSON.parse(event.replace(/^data: /gm, '').trim()) as Record<string, unknown>;
    return n['ietf-restconf:notification'] as Record<string, Record<string, unknown>>;
  }

  test('the YANG library lists ietf-distributed-notif as implemented', async () => {
    const r = await s.fetch('/restconf/data/ietf-yang-library:modules-state', {
      headers: { Accept: DATA_JSON },
    });
    const body = (await r.json()) as {
      'ietf-yang-library:modules-state': { module: { name: string; 'conformance-type': string }[] };
    };
    const module = body['ietf-yang-library:modules-state'].module.find(
      (m) => m.name === 'ietf-distributed-notif',
    );
    expect(module?.['conformance-type']).toBe('implement');
  });

  test('the subscription state names the publisher of a subscription', async () => {
    const output = await outputOf(await establish({ stream: 'NETCONF' }));
    const r = await s.fetch(
      `/restconf/data/ietf-subscribed-notifications:subscriptions/subscription=${output.id}`,
      {
        headers: { Accept: DATA_JSON },
      },
    );
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, Record<string, unknown>[]>;
    expect(body['ietf-subscribed-notifications:subscription']![0]![PUBLISHER]).toEqual([1]);
    await remove(output.id);
  });

  test('a push-update names its publisher', async () => {
    const output = await outputOf(await establish(onChange));
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {},
    );
    expect(notificationOf(event)['ietf-yang-push:push-update']![PUBLISHER]).toBe(1);
    await remove(output.id);
  });

  test('a push-change-update names its publisher', async () => {
    const output = await outputOf(
      await establish({ ...onChange, 'ietf-yang-push:on-change': { 'sync-on-start': false } }),
    );
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {
        await s.fetch(`${PLAYER}/gap`, sendJson('PUT', { 'example-jukebox:gap': '0.7' }));
      },
    );
    expect(notificationOf(event)['ietf-yang-push:push-change-update']![PUBLISHER]).toBe(1);
    await remove(output.id);
  });

  test('subscription-modified names the publishers of the subscription', async () => {
    const output = await outputOf(await establish({ stream: 'NETCONF' }));
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {
        const r = await s.fetch(
          `${OPS}:modify-subscription`,
          sendJson('POST', {
            'ietf-subscribed-notifications:input': {
              id: output.id,
              'stream-xpath-filter': '/example-mod:event',
            },
          }),
        );
        expect(r.status).toBe(204);
      },
    );
    expect(notificationOf(event)['ietf-subscribed-notifications:subscription-modified']![PUBLISHER]).toEqual([
      1,
    ]);
    await remove(output.id);
  });
});

/** The `ietf-subscribed-notifications:output` of a JSON answer. */
async function outputOf(r: Response): Promise<Output> {
  expect(r.status).toBe(200);
  return ((await r.json()) as Record<string, Output>)['ietf-subscribed-notifications:output']!;
}

const PLAYER = '/restconf/data/example-jukebox:jukebox/player';

describe('xpath filters of stream and YANG Push subscriptions', () => {
  test('a JSON stream filter with unprefixed child steps (RFC 7951 names) selects as meant', async () => {
    const output = await outputOf(
      await establish({
        stream: 'NETCONF',
        'stream-xpath-filter':
          "/ietf-netconf-notifications:netconf-config-change[contains(edit/target, 'gap')]",
      }),
    );
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {
        await s.fetch(`${PLAYER}`, sendJson('PATCH', { 'example-jukebox:player': { volume: 3 } }));
        await s.fetch(`${PLAYER}/gap`, sendJson('PUT', { 'example-jukebox:gap': '0.6' }));
      },
    );
    expect(event).toContain('"ietf-netconf-notifications:netconf-config-change"');
    expect(event).toContain('gap');
    expect(event).not.toContain('volume');
  });

  test('a JSON YANG Push filter with unprefixed child steps selects as meant', async () => {
    await s.fetch(`${PLAYER}/gap`, sendJson('PUT', { 'example-jukebox:gap': '0.4' }));
    const output = await outputOf(
      await establish({
        'ietf-yang-push:datastore': 'ietf-datastores:running',
        'ietf-yang-push:datastore-xpath-filter': '/example-jukebox:jukebox/player/gap',
        'ietf-yang-push:periodic': { period: 100 },
      }),
    );
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {},
    );
    const update = JSON.parse(event.replace(/^data: /gm, '').trim()) as {
      'ietf-restconf:notification': Record<string, { 'datastore-contents': unknown }>;
    };
    expect(update['ietf-restconf:notification']['ietf-yang-push:push-update']!['datastore-contents']).toEqual(
      {
        'example-jukebox:jukebox': { player: { gap: '0.4' } },
      },
    );
  });

  test('an XML filter with a declared xmlns prefix resolves it', async () => {
    const r = await s.fetch(`${OPS}:establish-subscription`, {
      method: 'POST',
      headers: { 'Content-Type': DATA_XML, Accept: DATA_JSON },
      body:
        '<input xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications">' +
        '<datastore xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-push" xmlns:ds="urn:ietf:params:xml:ns:yang:ietf-datastores">ds:running</datastore>' +
        '<datastore-xpath-filter xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-push" xmlns:jb="http://example.com/ns/example-jukebox">/jb:jukebox/jb:player/jb:gap</datastore-xpath-filter>' +
        '<periodic xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-push"><period>100</period></periodic></input>',
    });
    const output = await outputOf(r);
    const event = await firstEvent(
      output['ietf-restconf-subscribed-notifications:uri'] as string,
      async () => {},
    );
    expect(event).toContain('<gap>');
    await remove(output.id);
  });
});
