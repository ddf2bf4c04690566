import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { SHARED_YANG } from './helpers';

const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
const EVENTS = 'http://example.com/event/1.0';
const ESTABLISH = 'ietf-subscribed-notifications:establish-subscription';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadSchema({
    paths: [SHARED_YANG],
    modules: ['ietf-subscribed-notifications', 'ietf-yang-push', 'example-mod'],
  });
}, 60_000);

/** The stream-xpath-filter of an establish-subscription input, as the tree keeps it. */
function filterOf(tree: ReturnType<typeof decodeJson>): unknown {
  const input = JSON.parse(encodeJson(tree)) as Record<string, Record<string, unknown>>;
  return input['ietf-subscribed-notifications:input']!['stream-xpath-filter'];
}

describe('yang:xpath1.0 values (subscription filters)', () => {
  test('JSON: the module named on the first step is written on the unprefixed steps after it', () => {
    const tree = decodeJson(
      schema,
      {
        'ietf-subscribed-notifications:input': {
          stream: 'NETCONF',
          'stream-xpath-filter': "/example-mod:event[severity='major']/event-class",
        },
      },
      { kind: 'rpc-input', operation: ESTABLISH },
    );
    expect(filterOf(tree)).toBe("/example-mod:event[example-mod:severity='major']/example-mod:event-class");
  });

  test('XML: the prefixes declared on the element become module names', () => {
    const tree = decodeXml(
      schema,
      `<input xmlns="${SN}"><stream>NETCONF</stream><stream-xpath-filter xmlns:e="${EVENTS}">/e:event[e:severity='major']</stream-xpath-filter></input>`,
      { kind: 'rpc-input', operation: ESTABLISH },
    );
    expect(filterOf(tree)).toBe("/example-mod:event[example-mod:severity='major']");
  });

  test('XML output writes the schema prefixes and declares them', () => {
    const tree = decodeJson(
      schema,
      { 'ietf-subscribed-notifications:input': { 'stream-xpath-filter': '/example-mod:event/severity' } },
      { kind: 'rpc-input', operation: ESTABLISH },
    );
    const prefix = schema.moduleByName('example-mod')!.prefix;
    expect(encodeXml(tree)).toContain(
      `<stream-xpath-filter xmlns:${prefix}="${EVENTS}">/${prefix}:event/${prefix}:severity</stream-xpath-filter>`,
    );
  });
});
