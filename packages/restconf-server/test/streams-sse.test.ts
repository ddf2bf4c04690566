import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from './harness.js';
import { EVENT_NS, eventXml, openStream } from './streams-helpers.js';

let gw: Gateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw.close();
});

describe('event stream resources', () => {
  test('restconf-state lists the NETCONF stream with an access entry per encoding', async () => {
    const res = await gw.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/streams', {
      headers: { accept: 'application/yang-data+json' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, { stream: Record<string, unknown>[] }>;
    const stream = body['ietf-restconf-monitoring:streams']!.stream[0]!;
    expect(stream.name).toBe('NETCONF');
    expect(stream['replay-support']).toBe(true);
    expect(typeof stream['replay-log-creation-time']).toBe('string');
    expect(stream.access).toEqual([
      { encoding: 'xml', location: 'http://localhost/restconf/streams/xml-NETCONF' },
      { encoding: 'json', location: 'http://localhost/restconf/streams/json-NETCONF' },
    ]);
  });

  test('restconf-state lists the filter and replay capabilities', async () => {
    const res = await gw.fetch('/restconf/data/ietf-restconf-monitoring:restconf-state/capabilities', {
      headers: { accept: 'application/yang-data+json' },
    });
    const text = await res.text();
    expect(text).toContain('urn:ietf:params:restconf:capability:filter:1.0');
    expect(text).toContain('urn:ietf:params:restconf:capability:replay:1.0');
  });

  test('a JSON stream delivers a notification as ietf-restconf:notification with eventTime', async () => {
    const s = await openStream(`${gw.url}/restconf/streams/json-NETCONF`);
    expect(s.response.status).toBe(200);
    expect(s.response.headers.get('content-type')).toBe('text/event-stream');
    expect(s.response.headers.get('x-accel-buffering')).toBe('no');
    gw.netconf.publish(eventXml('fault'));
    const [event] = await s.take(1);
    s.close();
    const message = JSON.parse(event!.data) as Record<string, Record<string, unknown>>;
    const n = message['ietf-restconf:notification']!;
    expect(typeof n.eventTime).toBe('string');
    expect(n['example-mod:event']).toEqual({
      'event-class': 'fault',
      'reporting-entity': { card: 'Ethernet0' },
      severity: 'major',
    });
  });

  test('an XML stream delivers the notification element with eventTime', async () => {
    const s = await openStream(`${gw.url}/restconf/streams/xml-NETCONF`);
    gw.netconf.publish(eventXml('xml-one'));
    const [event] = await s.takeWith(/xml-one/, 1);
    s.close();
    expect(event!.data).toMatch(/^<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0">/);
    expect(event!.data).toContain('<eventTime>');
    expect(event!.data).toContain(`<event xmlns="${EVENT_NS}">`);
    expect(event!.data).toContain('<event-class>xml-one</event-class>');
  });

  test('the spec /stream resource serves the NETCONF stream', async () => {
    const s = await openStream(`${gw.url}/restconf/stream`);
    expect(s.response.status).toBe(200);
    gw.netconf.publish(eventXml('via-stream'));
    const [event] = await s.takeWith(/event-class/, 1);
    s.close();
    expect(event!.data).toContain('via-stream');
  });

  test('each line of an indented message is its own data line and a blank line ends the event', async () => {
    const indented = await startGateway({ messageIndent: 2 });
    try {
      const res = await fetch(`${indented.url}/restconf/streams/json-NETCONF`, {
        headers: { accept: 'text/event-stream' },
      });
      const reader = res.body!.getReader();
      indented.netconf.publish(eventXml('lines'));
      let text = '';
      while (!text.includes('\n\n')) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      await reader.cancel();
      const event = text.slice(0, text.indexOf('\n\n') + 2);
      const lines = event.split('\n').slice(0, -2);
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(line).toMatch(/^data: /);
      expect(event.endsWith('}\n\n')).toBe(true);
    } finally {
      await indented.close();
    }
  });

  test('an unknown stream is 404', async () => {
    const res = await gw.fetch('/restconf/streams/json-NOPE', { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(404);
  });

  test('an unknown encoding is 404', async () => {
    const res = await gw.fetch('/restconf/streams/yaml-NETCONF', {
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(404);
  });

  test('an Accept without text/event-stream is 406', async () => {
    const res = await gw.fetch('/restconf/streams/json-NETCONF', {
      headers: { accept: 'application/yang-data+json' },
    });
    expect(res.status).toBe(406);
  });

  test('filter on a data resource is 400', async () => {
    const res = await gw.fetch('/restconf/data/example-jukebox:jukebox?filter=/a', {
      headers: { accept: 'application/yang-data+json' },
    });
    expect(res.status).toBe(400);
  });
});

describe('filter', () => {
  test('only notifications the XPath filter selects are delivered', async () => {
    const filter = encodeURIComponent("/example-mod:event[example-mod:severity='critical']");
    const s = await openStream(`${gw.url}/restconf/streams/json-NETCONF?filter=${filter}`);
    gw.netconf.publish(eventXml('skip-me', 'minor'));
    gw.netconf.publish(eventXml('keep-me', 'critical'));
    const [event] = await s.take(1);
    s.close();
    expect(event!.data).toContain('keep-me');
    expect(event!.data).not.toContain('skip-me');
  });

  test('a filter that is not XPath is 400 invalid-value', async () => {
    const res = await gw.fetch(`/restconf/streams/json-NETCONF?filter=${encodeURIComponent('/a[')}`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid-value');
  });
});

describe('replay', () => {
  test('start-time replays logged events, then replayComplete, then live events', async () => {
    const g = await startGateway();
    try {
      const start = new Date(Date.now() - 1000).toISOString();
      g.netconf.publish(eventXml('old-1'));
      g.netconf.publish(eventXml('old-2'));
      const s = await openStream(
        `${g.url}/restconf/streams/json-NETCONF?start-time=${encodeURIComponent(start)}`,
      );
      const ours = /event-class|replayComplete/;
      const replayed = await s.takeWith(ours, 3);
      g.netconf.publish(eventXml('live'));
      const [live] = await s.takeWith(ours, 1);
      s.close();
      expect(replayed[0]!.data).toContain('old-1');
      expect(replayed[1]!.data).toContain('old-2');
      expect(replayed[2]!.data).toContain('replayComplete');
      expect(live!.data).toContain('live');
    } finally {
      await g.close();
    }
  });

  test('stop-time ends the stream after notificationComplete', async () => {
    const g = await startGateway();
    try {
      const start = new Date(Date.now() - 1000).toISOString();
      g.netconf.publish(eventXml('before-stop'));
      const stop = new Date(Date.now() + 1).toISOString();
      await new Promise((r) => setTimeout(r, 20));
      const q = `start-time=${encodeURIComponent(start)}&stop-time=${encodeURIComponent(stop)}`;
      const s = await openStream(`${g.url}/restconf/streams/xml-NETCONF?${q}`);
      const events = await s.takeWith(/event-class|Complete/, 10);
      expect(
        events.map((e) => /<(event-class>before-stop|replayComplete|notificationComplete)/.exec(e.data)?.[1]),
      ).toEqual(['event-class>before-stop', 'replayComplete', 'notificationComplete']);
    } finally {
      await g.close();
    }
  });
});
