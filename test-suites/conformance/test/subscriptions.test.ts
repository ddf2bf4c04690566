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

  test('the output holds id and uri and no message-publisher-id', async () => {
    const r = await establish({ stream: 'NETCONF' });
    const output = ((await r.json()) as Record<string, Output>)['ietf-subscribed-notifications:output']!;
    expect(Object.keys(output).sort()).toEqual(['id', 'ietf-restconf-subscribed-notifications:uri']);
    await remove(output.id);
  });
});
