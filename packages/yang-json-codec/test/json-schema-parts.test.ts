import { compileSchema, parseModule, type SchemaNode } from '@yangkit/yang-schema';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, test } from 'vitest';
import { type JsonSchema, membersJsonSchema, nodeJsonSchema } from '../src/index';

const tree = compileSchema([
  parseModule(
    `module parts { yang-version 1.1; namespace "urn:parts"; prefix p;
      grouping address { leaf ip { type string; } leaf port { type uint16; } }
      container server {
        description "A server.";
        uses address;
        leaf enabled { type boolean; description "On or off."; }
        list peer { key name; leaf name { type string; } uses address; }
        leaf-list tag { type string; }
        leaf hits { type uint32; config false; }
      }
      rpc ping { input { leaf host { type string; } uses address; } }
    }`,
    { file: 'parts.yang' },
  ),
]);
const server = tree.find('/parts:server')!;
const ping = tree.find('/parts:ping/input')!;

describe('nodeJsonSchema', () => {
  test('describes a container as an object of its members', () => {
    const s = nodeJsonSchema(tree, server);
    expect(s.type).toBe('object');
    expect(Object.keys(s.properties as object)).toEqual(['ip', 'port', 'enabled', 'peer', 'tag', 'hits']);
    expect(s.additionalProperties).toBe(false);
  });

  test('describes a list as an array of entries that require their keys', () => {
    const s = nodeJsonSchema(tree, server.dataChild('parts', 'peer')!);
    expect(s.type).toBe('array');
    expect((s.items as JsonSchema).required).toEqual(['name']);
  });

  test('leaves out state data for a configuration body', () => {
    const s = nodeJsonSchema(tree, server, { configOnly: true });
    expect(Object.keys(s.properties as object)).not.toContain('hits');
  });

  test('carries YANG descriptions when asked for', () => {
    const s = nodeJsonSchema(tree, server, { descriptions: true });
    expect(s.description).toBe('A server.');
    expect((s.properties as Record<string, JsonSchema>).enabled!.description).toBe('On or off.');
  });

  test('names the XML element and namespace of each member, on the entries of lists', () => {
    const s = nodeJsonSchema(tree, server, { xml: true });
    const props = s.properties as Record<string, JsonSchema>;
    expect(s.xml).toEqual({ name: 'server', namespace: 'urn:parts' });
    expect(props.enabled!.xml).toEqual({ name: 'enabled', namespace: 'urn:parts' });
    expect((props.peer!.items as JsonSchema).xml).toEqual({ name: 'peer', namespace: 'urn:parts' });
    expect((props.tag!.items as JsonSchema).xml).toEqual({ name: 'tag', namespace: 'urn:parts' });
  });

  test('puts what objectSchema returns in place of each container and list entry, innermost first', () => {
    const seen: string[] = [];
    const s = nodeJsonSchema(tree, server, {
      objectSchema: (node: SchemaNode) => {
        seen.push(node.name);
        return { $ref: `#/${node.name}` };
      },
    });
    expect(seen).toEqual(['peer', 'server']);
    expect(s).toEqual({ $ref: '#/server' });
  });
});

describe('groupingSchema', () => {
  const shared = (grouping: string) => ({ $ref: `#/$defs/${grouping.replace(':', '_')}` });

  test('joins the members of a uses through allOf and closes the object with unevaluatedProperties', () => {
    const s = nodeJsonSchema(tree, server, { groupingSchema: shared });
    expect(Object.keys(s.properties as object)).toEqual(['enabled', 'peer', 'tag', 'hits']);
    expect(s.allOf).toEqual([{ $ref: '#/$defs/parts_address' }]);
    expect(s.unevaluatedProperties).toBe(false);
    expect(s.additionalProperties).toBeUndefined();
  });

  test('hands over the members of the grouping as an object, with the node that holds them', () => {
    const parts: JsonSchema[] = [];
    const parents: (string | undefined)[] = [];
    nodeJsonSchema(tree, server, {
      groupingSchema: (_g, part, parent) => {
        parts.push(part);
        parents.push(parent?.name);
        return undefined;
      },
    });
    expect(parents).toEqual(['peer', 'server']);
    expect(Object.keys(parts[0]!.properties as object)).toEqual(['ip', 'port']);
  });

  test('keeps the members in place when groupingSchema returns undefined', () => {
    const s = nodeJsonSchema(tree, server, { groupingSchema: () => undefined });
    expect(s).toEqual(nodeJsonSchema(tree, server));
  });

  test('validates documents the same way once the parts are shared', () => {
    const defs: Record<string, JsonSchema> = {};
    const schema = nodeJsonSchema(tree, server, {
      groupingSchema: (g, part) => {
        defs[g.replace(':', '_')] = part;
        return shared(g);
      },
    });
    const check = new Ajv2020({ strict: false }).compile({ ...schema, $defs: defs });
    expect(check({ ip: '10.0.0.1', port: 830, enabled: true, peer: [{ name: 'a', port: 22 }] })).toBe(true);
    expect(check({ ip: '10.0.0.1', mask: 24 })).toBe(false);
    expect(check({ peer: [{ name: 'a', extra: 1 }] })).toBe(false);
    expect(check({ port: 70000 })).toBe(false);
  });
});

describe('membersJsonSchema', () => {
  test('describes the input of an operation as an object of its data children', () => {
    const s = membersJsonSchema(tree, ping);
    expect(Object.keys(s.properties as object)).toEqual(['host', 'ip', 'port']);
  });
});
