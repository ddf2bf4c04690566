import { decodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RestconfError } from '../src/errors.js';
import { compileEventFilter, MAX_FILTER_LENGTH } from '../src/streams/event-filter.js';
import { streamLocation, streamsXml } from '../src/streams/stream-list.js';
import { streamSettings } from '../src/streams/stream-options.js';
import { exampleSchema } from './harness.js';
import { EVENT_NS, eventXml } from './streams-helpers.js';

/** An example-mod event notification, decoded as the backend delivers it. */
function event(schema: SchemaTree, eventClass: string, severity?: string): InstanceTree {
  const xml = `<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0"><eventTime>2026-01-01T00:00:00Z</eventTime>${eventXml(eventClass, severity)}</notification>`;
  return decodeXml(schema, xml, { kind: 'notification', strict: false });
}

describe('compileEventFilter', () => {
  test('selects an event by a module-name-prefixed path', async () => {
    const schema = await exampleSchema();
    const f = compileEventFilter(schema, "/example-mod:event[example-mod:severity='major']");
    expect(f.matches(event(schema, 'a', 'major'))).toBe(true);
    expect(f.matches(event(schema, 'a', 'minor'))).toBe(false);
  });

  test('accepts the module prefix as well as the module name', async () => {
    const schema = await exampleSchema();
    const f = compileEventFilter(schema, '/ex:event');
    expect(f.matches(event(schema, 'a'))).toBe(true);
  });

  test('hands the backend only the prefixes the expression uses', async () => {
    const f = compileEventFilter(await exampleSchema(), '/example-mod:event');
    expect(f.forBackend).toEqual({ xpath: '/example-mod:event', namespaces: { 'example-mod': EVENT_NS } });
  });

  test('rejects an unknown prefix with a 400 RestconfError', async () => {
    const schema = await exampleSchema();
    expect(() => compileEventFilter(schema, '/nope:event')).toThrow(RestconfError);
  });

  test('rejects an expression longer than the limit', async () => {
    const schema = await exampleSchema();
    expect(() => compileEventFilter(schema, `/${'a'.repeat(MAX_FILTER_LENGTH)}`)).toThrow(RestconfError);
  });

  test('any expression either compiles or throws a RestconfError, and matching never throws', async () => {
    const schema = await exampleSchema();
    const xpathish = fc.stringMatching(/^[/a-z:\-[\]='() 0-9.*@|!<>]{0,40}$/);
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 60 }), xpathish),
        fc.string({ maxLength: 80 }),
        (expr, eventClass) => {
          let f: ReturnType<typeof compileEventFilter>;
          try {
            f = compileEventFilter(schema, expr);
          } catch (error) {
            expect(error).toBeInstanceOf(RestconfError);
            return;
          }
          expect(typeof f.matches(event(schema, eventClass.replace(/[^\w .-]/g, '')))).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('streamSettings', () => {
  test('accepts 0 and 5..3600 seconds of keepalive', () => {
    for (const ok of [0, 5, 30, 3600]) expect(streamSettings({}, ok).keepaliveSeconds).toBe(ok);
  });

  test('prefers sseKeepalive over streams.keepaliveSeconds', () => {
    expect(streamSettings({ keepaliveSeconds: 10 }, 20).keepaliveSeconds).toBe(20);
  });

  test('rejects a queue bound that is not a positive integer', () => {
    expect(() => streamSettings({ maxQueuedEvents: 0 })).toThrow(RestconfError);
  });
});

describe('streamsXml', () => {
  test('writes one access entry per encoding and escapes text', () => {
    const xml = streamsXml(
      [
        {
          name: 'A&B',
          description: '<x>',
          replaySupport: true,
          replayLogCreationTime: '2026-01-01T00:00:00Z',
        },
      ],
      'https://h/',
      '/restconf',
    );
    expect(xml).toBe(
      '<streams><stream><name>A&amp;B</name><description>&lt;x&gt;</description><replay-support>true</replay-support>' +
        '<replay-log-creation-time>2026-01-01T00:00:00Z</replay-log-creation-time>' +
        '<access><encoding>xml</encoding><location>https://h/restconf/streams/xml-A%26B</location></access>' +
        '<access><encoding>json</encoding><location>https://h/restconf/streams/json-A%26B</location></access>' +
        '</stream></streams>',
    );
  });

  test('builds locations from the server URL without a doubled slash', () => {
    expect(streamLocation('http://localhost/', '/restconf', 'json', 'NETCONF')).toBe(
      'http://localhost/restconf/streams/json-NETCONF',
    );
  });
});
