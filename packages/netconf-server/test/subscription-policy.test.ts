import { readXmlDocument, type XmlElement } from '@yangkit/xml';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { emptyConfig } from '../src/datastore.js';
import { RpcError } from '../src/errors.js';
import { filterXml, parseModify, subscriptionIdOf, triggerOf } from '../src/subscription-policy.js';
import { client, testSchema, testServer } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
});

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const YP = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
const DS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';

function op(inner: string): XmlElement {
  return readXmlDocument(
    `<modify-subscription xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}">${inner}</modify-subscription>`,
  );
}

describe('reading modify-subscription', () => {
  test('a request with only a stop-time changes neither filter nor trigger', () => {
    const change = parseModify(
      schema,
      emptyConfig(schema),
      op('<id>1</id><stop-time>2030-01-01T00:00:00Z</stop-time>'),
    );
    expect(change.filter).toBeNull();
    expect(change.trigger).toBeUndefined();
    expect(change.stopTime).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });

  test('an xpath filter may use module names as prefixes without declaring them', () => {
    const change = parseModify(
      schema,
      emptyConfig(schema),
      op('<stream-xpath-filter>/example-mod:event</stream-xpath-filter>'),
    );
    expect(change.filter).toMatchObject({ xpath: '/example-mod:event' });
  });

  test('a periodic trigger keeps its anchor-time', () => {
    const trigger = triggerOf(
      op(
        '<yp:periodic><yp:period>100</yp:period><yp:anchor-time>2020-01-01T00:00:00Z</yp:anchor-time></yp:periodic>',
      ),
    );
    expect(trigger).toEqual({ periodic: { period: 100, anchorTime: Date.parse('2020-01-01T00:00:00Z') } });
  });

  test('an on-change trigger without a dampening-period has 0', () => {
    expect(triggerOf(op('<yp:on-change/>'))).toEqual({ onChange: { dampening: 0, syncOnStart: true } });
  });

  test('a subscription id beyond uint32 is refused', () => {
    expect(() => subscriptionIdOf(op('<id>4294967296</id>'))).toThrow(RpcError);
  });

  test('an xpath filter is written back with the declarations its prefixes need', () => {
    const change = parseModify(
      schema,
      emptyConfig(schema),
      op('<stream-xpath-filter xmlns:ex="http://example.com/event/1.0">/ex:event</stream-xpath-filter>'),
    );
    const xml = filterXml(change.filter ?? undefined, 'stream', SN);
    expect(xml).toContain('xmlns:ex="http://example.com/event/1.0"');
    expect(xml).not.toContain('xmlns:ietf-interfaces');
  });
});

const LEAVES = [
  'id',
  'stop-time',
  'stream-xpath-filter',
  'stream-filter-name',
  'yp:datastore',
  'yp:datastore-xpath-filter',
  'yp:selection-filter-ref',
  'yp:period',
  'yp:anchor-time',
  'yp:dampening-period',
  'yp:sync-on-start',
];
const CONTAINERS = ['stream-subtree-filter', 'yp:datastore-subtree-filter', 'yp:periodic', 'yp:on-change'];
const TEXTS = [
  '',
  '1',
  '0',
  '-5',
  '4294967296',
  'ds:running',
  'ds:candidate',
  'x:y',
  '/a[',
  '//*',
  '2030-01-01T00:00:00Z',
];

const element: fc.Memo<string> = fc.memo((depth) =>
  depth <= 1
    ? fc
        .tuple(fc.constantFrom(...LEAVES), fc.oneof(fc.constantFrom(...TEXTS), fc.string({ maxLength: 12 })))
        .map(([name, text]) => `<${name}>${text.replace(/[<&]/g, '')}</${name}>`)
    : fc.oneof(
        element(1),
        fc
          .tuple(fc.constantFrom(...CONTAINERS), fc.array(element(depth - 1), { maxLength: 3 }))
          .map(([name, kids]) => `<${name}>${kids.join('')}</${name}>`),
      ),
);

test('any modify-subscription input is read or refused with an RpcError, never anything else', () => {
  fc.assert(
    fc.property(fc.array(element(3), { maxLength: 6 }), (kids) => {
      try {
        parseModify(schema, emptyConfig(schema), op(kids.join('')));
      } catch (error) {
        expect(error).toBeInstanceOf(RpcError);
      }
    }),
    { numRuns: 500 },
  );
});

test('any establish- or modify-subscription is answered with ok or an rpc-error, and the session goes on', async () => {
  const server = await testServer();
  const c = await client(server);
  const ops = fc.constantFrom('establish-subscription', 'modify-subscription');
  try {
    await fc.assert(
      fc.asyncProperty(ops, fc.array(element(3), { maxLength: 5 }), async (name, kids) => {
        const reply = await c
          .rpc(`<${name} xmlns="${SN}" xmlns:yp="${YP}" xmlns:ds="${DS}">${kids.join('')}</${name}>`)
          .then(
            () => 'ok',
            (error: unknown) =>
              error instanceof Error && error.name === 'NetconfRpcError' ? 'rpc-error' : error,
          );
        expect(['ok', 'rpc-error']).toContain(reply);
      }),
      { numRuns: 200 },
    );
    expect((await c.getConfig({ source: 'running' })).length).toBeGreaterThanOrEqual(0);
  } finally {
    await server.close();
  }
});
