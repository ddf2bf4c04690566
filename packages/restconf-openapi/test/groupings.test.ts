import { compileSchema, loadSchema, parseModule, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, expect, test } from 'vitest';
import { toOpenApi } from '../src/index';

// biome-ignore lint/suspicious/noExplicitAny: assertions read nested OpenAPI objects
type Obj = Record<string, any>;

let tree: SchemaTree;
let schemas: Obj;
beforeAll(async () => {
  const base = await loadSchema({ modules: ['ietf-restconf', 'ietf-yang-patch'] });
  tree = compileSchema([
    ...base.modules.map((m) => parseModule(m.source, { file: m.file ?? `${m.name}.yang` })),
    parseModule(
      `module net { yang-version 1.1; namespace "urn:net"; prefix n;
        grouping endpoint { leaf host { type string; } leaf port { type uint16; } }
        grouping once { leaf only { type string; } }
        grouping timers { leaf hello { type uint16; } }
        container client { uses endpoint; uses once; }
        container server { uses endpoint; leaf backlog { type uint32; } }
        container relay { uses endpoint { refine port { default 22; } } uses timers { refine hello { description "Seconds between hellos."; } } }
        container peer { uses timers; }
      }`,
      { file: 'net.yang' },
    ),
  ]);
  schemas = toOpenApi(tree, { modules: ['net'] }).components.schemas as Obj;
});

test('describes a grouping used at two places once, and refers to it from both', () => {
  expect(schemas['grouping.net.endpoint'].properties).toHaveProperty('host');
  expect(schemas['net.client'].allOf).toEqual([{ $ref: '#/components/schemas/grouping.net.endpoint' }]);
  expect(schemas['net.server'].allOf).toEqual([{ $ref: '#/components/schemas/grouping.net.endpoint' }]);
  expect(schemas['net.server'].unevaluatedProperties).toBe(false);
});

test('keeps the members of a grouping used once in the object', () => {
  expect(schemas['grouping.net.once']).toBeUndefined();
  expect(schemas['net.client'].properties).toHaveProperty('only');
});

test('shares a grouping only where its uses describe the same members', () => {
  expect(schemas['grouping.net.timers']).toBeUndefined();
  expect(schemas['net.peer'].properties.hello.description).toBeUndefined();
  expect(schemas['net.relay'].properties.hello.description).toBe('Seconds between hellos.');
});
