import type { PathSchema, PathSchemaNode } from '../../src/index.js';

/** A node of the in-memory test schema: a {@link PathSchemaNode} plus its children. */
interface TestNode extends PathSchemaNode {
  readonly children: readonly TestNode[];
}

type Spec = Omit<TestNode, 'module' | 'namespace' | 'children'> & {
  readonly module?: string;
  readonly children?: readonly Spec[];
};

const NAMESPACES: Record<string, string> = {
  'example-jukebox': 'http://example.com/ns/example-jukebox',
  'example-top': 'https://example.com/ns/example-top',
  'example-actions': 'https://example.com/ns/example-actions',
  'example-augment': 'urn:example:augment',
  'example-ops': 'https://example.com/ns/example-ops',
  'example-events': 'https://example.com/ns/example-events',
  'other-ops': 'urn:example:other-ops',
};

function build(spec: Spec, module: string): TestNode {
  const own = spec.module ?? module;
  return {
    ...spec,
    module: own,
    namespace: NAMESPACES[own]!,
    children: (spec.children ?? []).map((c) => build(c, own)),
  };
}

const TOP: Spec[] = [
  {
    module: 'example-jukebox',
    kind: 'container',
    name: 'jukebox',
    children: [
      {
        kind: 'container',
        name: 'library',
        children: [
          {
            kind: 'list',
            name: 'artist',
            keys: ['name'],
            children: [
              { kind: 'leaf', name: 'name' },
              {
                kind: 'list',
                name: 'album',
                keys: ['name'],
                children: [
                  { kind: 'leaf', name: 'name' },
                  { kind: 'leaf', name: 'year' },
                  { kind: 'container', name: 'admin', children: [{ kind: 'leaf', name: 'label' }] },
                  { kind: 'list', name: 'song', keys: ['name'], children: [{ kind: 'leaf', name: 'name' }] },
                  { module: 'example-augment', kind: 'leaf', name: 'rating' },
                ],
              },
            ],
          },
          { kind: 'leaf', name: 'artist-count' },
        ],
      },
      {
        kind: 'list',
        name: 'playlist',
        keys: ['name'],
        children: [
          { kind: 'leaf', name: 'name' },
          { kind: 'list', name: 'song', keys: ['index'], children: [{ kind: 'leaf', name: 'index' }] },
        ],
      },
      { kind: 'container', name: 'player', children: [{ kind: 'leaf', name: 'gap' }] },
    ],
  },
  { module: 'example-jukebox', kind: 'rpc', name: 'play' },
  {
    module: 'example-top',
    kind: 'container',
    name: 'top',
    children: [
      {
        kind: 'list',
        name: 'list1',
        keys: ['key1', 'key2', 'key3'],
        children: [
          { kind: 'leaf', name: 'key1' },
          { kind: 'list', name: 'list2', keys: ['key4', 'key5'], children: [{ kind: 'leaf', name: 'X' }] },
        ],
      },
      { kind: 'leaf-list', name: 'Y' },
      { kind: 'list', name: 'log', children: [{ kind: 'leaf', name: 'line' }] },
      { kind: 'anydata', name: 'blob' },
    ],
  },
  {
    module: 'example-actions',
    kind: 'container',
    name: 'interfaces',
    children: [
      {
        kind: 'list',
        name: 'interface',
        keys: ['name'],
        children: [
          { kind: 'leaf', name: 'name' },
          { kind: 'action', name: 'reset' },
          { kind: 'notification', name: 'link-flap' },
        ],
      },
    ],
  },
  { module: 'example-ops', kind: 'rpc', name: 'reboot' },
  { module: 'other-ops', kind: 'rpc', name: 'reboot' },
  { module: 'example-events', kind: 'notification', name: 'event' },
];

const ROOTS = TOP.map((s) => build(s, s.module!));

/** An in-memory {@link PathSchema} with example-jukebox, RFC 8040's example-top and friends. */
export const testSchema: PathSchema = {
  topLevel: (module, name) => ROOTS.find((n) => n.module === module && n.name === name),
  child: (parent, module, name) =>
    (parent as TestNode).children.find((n) => n.module === module && n.name === name),
  modulesDefining: (name) => ROOTS.filter((n) => n.name === name).map((n) => n.module),
};

/** The same schema without the optional `modulesDefining`. */
export const minimalSchema: PathSchema = { topLevel: testSchema.topLevel, child: testSchema.child };
