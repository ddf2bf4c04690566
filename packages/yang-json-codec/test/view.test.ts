import { loadSchema, type SchemaNode, type SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyContent,
  applyDepth,
  applyFields,
  applyWithDefaults,
  type ChildHolder,
  cloneTree,
  type DataNode,
  decodeJson,
  type EncodeOptions,
  encodeJson,
  encodeJsonChunks,
  encodeXml,
  encodeXmlChunks,
  entryKey,
  type InstanceTree,
  ITEMS_PER_STEP,
  type NodeFilter,
  type OriginRule,
  ownOrigin,
  type TreeView,
  viewedTopLevel,
  type WithDefaultsMode,
  walk,
} from '../src/index';
import { SHARED_YANG } from './helpers';
import { InstanceGenerator, prng } from './instance-generator';

/** Defaults in configuration and in state, through choices and non-presence containers. */
const VIEW_MODULE = `module view-test {
  yang-version 1.1;
  namespace "urn:example:view-test";
  prefix vt;
  container box {
    leaf mode { type string; default "auto"; }
    leaf-list ports { type uint16; default 80; default 443; }
    leaf note { type string; }
    container timers {
      leaf hello { type uint16; default 10; }
      container inner { leaf dead { type uint16; default 40; } }
    }
    container opt { presence "on"; leaf level { type uint8; default 1; } }
    choice transport {
      default tcp;
      case tcp { leaf tcp-port { type uint16; default 830; } }
      case tls { leaf tls-port { type uint16; default 6513; } leaf tls-note { type string; } }
    }
    container counters {
      config false;
      leaf drops { type uint32; default 0; }
      leaf seen { type uint32; }
    }
    leaf uptime { type uint32; config false; default 0; }
    list item {
      key "name";
      leaf name { type string; }
      leaf weight { type uint8; default 5; }
      leaf hits { type uint32; config false; }
      container stats { config false; leaf errors { type uint32; default 0; } }
      list part {
        key "id";
        leaf id { type uint8; }
        leaf size { type uint8; default 1; }
        leaf load { type uint8; config false; }
      }
    }
  }
}`;

const SETS: Record<string, { modules: string[]; texts?: string[] }> = {
  'view-test': { modules: ['view-test'], texts: [VIEW_MODULE] },
  'example-jukebox': { modules: ['example-jukebox'] },
  'ietf-interfaces + ietf-ip': { modules: ['ietf-interfaces', 'ietf-ip', 'iana-if-type'] },
};

const schemas = new Map<string, SchemaTree>();
beforeAll(async () => {
  for (const [name, set] of Object.entries(SETS)) {
    schemas.set(
      name,
      // ietf-origin defines the `origin` annotation, which the origin rules write.
      await loadSchema({
        paths: [SHARED_YANG],
        texts: set.texts ?? [],
        modules: [...set.modules, 'ietf-origin'],
      }),
    );
  }
}, 60_000);

/** A random `fields` expression over the data children of `parent` (names of `module` unqualified). */
function fieldsOver(
  children: readonly SchemaNode[],
  module: string | undefined,
  rnd: () => number,
  level = 0,
): string {
  const data = children.filter((c) => ['container', 'list', 'leaf', 'leaf-list'].includes(c.kind));
  const picked = data.filter(() => rnd() < 0.4);
  if (picked.length === 0 && data.length > 0) picked.push(data[Math.floor(rnd() * data.length)]!);
  return picked
    .map((c) => {
      const name = c.module === module ? c.name : `${c.module}:${c.name}`;
      const below = c.dataChildren();
      if (level > 3 || below.length === 0 || rnd() < 0.4) return name;
      const sub = fieldsOver(below, c.module, rnd, level + 1);
      return sub.includes(';') || rnd() < 0.5 ? `${name}(${sub})` : `${name}/${sub}`;
    })
    .join(';');
}

interface Case {
  readonly tree: InstanceTree;
  readonly view: TreeView;
}

/** A generated document of `set` (the datastore, or one top-level node as a resource) and a random view of it. */
function caseOf(
  set: string,
  seed: number,
  pick: { resource: boolean; content: number; wd: number; depth: number; fields: boolean },
): Case {
  const schema = schemas.get(set)!;
  const rnd = prng(seed);
  const doc = new InstanceGenerator(schema, rnd).document(SETS[set]!.modules);
  let tree = decodeJson(schema, doc);
  const tops = [...tree.children.keys()];
  const top = tops[Math.floor(rnd() * tops.length)];
  if (pick.resource && top !== undefined && top.kind === 'container') {
    tree = decodeJson(
      schema,
      { [`${top.module}:${top.name}`]: doc[`${top.module}:${top.name}`] },
      { kind: 'resource' },
    );
  }
  const resource = tree.kind === 'resource' && top !== undefined;
  const fields = !pick.fields
    ? undefined
    : resource
      ? fieldsOver(top.dataChildren(), top.module, rnd)
      : fieldsOver(schema.children, undefined, rnd);
  const modes: WithDefaultsMode[] = ['explicit', 'trim', 'report-all', 'report-all-tagged'];
  return {
    tree,
    view: {
      content: (['all', 'config', 'nonconfig'] as const)[pick.content]!,
      withDefaults: modes[pick.wd]!,
      ...(fields === undefined || fields === '' ? {} : { fields }),
      depth: pick.depth === 0 ? 'unbounded' : pick.depth,
    },
  };
}

/** The tree changed in place by the public functions, one rule after the other, in the view's order. */
function inPlace(tree: InstanceTree, view: TreeView): InstanceTree {
  const copy = cloneTree(tree);
  // The groups each holder had before with-defaults: those it adds have origin default.
  const present = new Map<ChildHolder, Set<SchemaNode>>();
  if (view.origin !== undefined)
    for (const holder of [copy, ...walk(copy)]) present.set(holder, new Set(holder.children?.keys()));
  applyWithDefaults(copy, view.withDefaults ?? 'explicit');
  applyContent(copy, view.content ?? 'all');
  if (view.fields !== undefined) applyFields(copy, view.fields);
  applyDepth(copy, view.depth ?? 'unbounded');
  if (view.origin !== undefined) markOrigin(copy, view.origin, present, undefined, false);
  return copy;
}

const DEFAULT = 'ietf-origin:default';

/**
 * RFC 8342 section 5.3.4 marking on a tree the other rules were applied to, node by node: the origin
 * annotation added where a node's origin differs from its parent's (always at the top level).
 */
function markOrigin(
  holder: ChildHolder,
  rule: OriginRule,
  present: ReadonlyMap<ChildHolder, ReadonlySet<SchemaNode>>,
  origin: string | undefined,
  inner: boolean,
): void {
  for (const [schema, nodes] of holder.children ?? []) {
    const added = present.has(holder) && !present.get(holder)!.has(schema);
    for (const n of nodes) {
      const own = ownOrigin(n);
      const mine = own ?? (added || origin === DEFAULT ? DEFAULT : rule(n, origin));
      if (own === undefined && mine !== undefined && (!inner || mine !== origin))
        n.annotations = [...(n.annotations ?? []), { module: 'ietf-origin', name: 'origin', value: mine }];
      markOrigin(n, rule, present, mine, true);
    }
  }
}

/** Configuration from intended, state from the system (netconf-server's rule). */
const bySchema: OriginRule = (n) => (n.schema.config ? 'ietf-origin:intended' : 'ietf-origin:system');
/** Inherited, learned at the top (with the origins a NETCONF server's reply carries, see `withOwnOrigins`). */
const inherited: OriginRule = (_, parent) => parent ?? 'ietf-origin:learned';

/** `tree` with an origin annotation of its own on about one node in `1 / every`, as a NETCONF reply has them. */
function withOwnOrigins(tree: InstanceTree, rnd: () => number, every: number): InstanceTree {
  for (const n of walk(tree)) {
    if (rnd() * every >= 1) continue;
    const value = rnd() < 0.5 ? 'ietf-origin:system' : 'ietf-origin:intended';
    n.annotations = [...(n.annotations ?? []), { module: 'ietf-origin', name: 'origin', value }];
  }
  return tree;
}

const picks = fc.record({
  resource: fc.boolean(),
  content: fc.integer({ min: 0, max: 2 }),
  wd: fc.integer({ min: 0, max: 3 }),
  depth: fc.integer({ min: 0, max: 6 }),
  fields: fc.boolean(),
});
const formats = fc.record({
  xml: fc.boolean(),
  keepEmptyNp: fc.boolean(),
  wrapper: fc.boolean(),
  indent: fc.constantFrom(-1, 2),
});

/** Expects `tree` written through `view` to be, byte for byte, what {@link inPlace} leaves of a copy, the tree unchanged. */
function expectInPlaceWritten(
  tree: InstanceTree,
  view: TreeView,
  format: { xml: boolean; keepEmptyNp: boolean; wrapper: boolean; indent: number },
): void {
  const options: EncodeOptions = {
    returnEmptyNpContainers: format.keepEmptyNp,
    wrapper: format.wrapper,
    indent: format.indent,
  };
  const encode = format.xml ? encodeXml : encodeJson;
  const before = encode(tree, options);
  expect(encode(tree, { ...options, view })).toBe(encode(inPlace(tree, view), options));
  expect(encode(tree, options)).toBe(before);
}

describe.each(Object.keys(SETS))('a view of generated %s data', (set) => {
  test('writes what the in-place functions leave of a copy, byte for byte, in JSON and XML, and leaves the tree as it was', () => {
    fc.assert(
      fc.property(fc.integer(), picks, formats, (seed, pick, format) => {
        const { tree, view } = caseOf(set, seed, pick);
        expectInPlaceWritten(tree, view, format);
      }),
      { numRuns: 300 },
    );
  });
});

describe.each(Object.keys(SETS))('a view with an origin rule of generated %s data', (set) => {
  test('writes what marking the origins of a copy in place leaves, byte for byte, in JSON and XML, and leaves the tree as it was', () => {
    fc.assert(
      fc.property(fc.integer(), picks, formats, fc.boolean(), (seed, pick, format, own) => {
        const { tree, view } = caseOf(set, seed, pick);
        if (own) withOwnOrigins(tree, prng(seed ^ 0x5a5a), 8);
        expectInPlaceWritten(tree, { ...view, origin: own ? inherited : bySchema }, format);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the origins a view writes (RFC 8342 section 5.3.4)', () => {
  const box = () =>
    decodeJson(schemas.get('view-test')!, {
      'view-test:box': { mode: 'auto', counters: { seen: 7 }, item: [{ name: 'a', weight: 5, hits: 3 }] },
    });
  const json = (tree: InstanceTree, view: TreeView) => JSON.parse(encodeJson(tree, { view }));
  const origin = (value: string) => ({ 'ietf-origin:origin': `ietf-origin:${value}` });

  test('states the origin at the top and where it differs from the parent, nowhere else', () => {
    expect(json(box(), { origin: bySchema })).toEqual({
      'view-test:box': {
        '@': origin('intended'),
        mode: 'auto',
        counters: { '@': origin('system'), seen: 7 },
        item: [{ name: 'a', weight: 5, hits: 3, '@hits': origin('system') }],
      },
    });
  });

  test('gives the values with-defaults adds origin default, once at the top of what it adds', () => {
    const out = json(box(), { origin: bySchema, withDefaults: 'report-all' })['view-test:box'];
    expect(out['@tcp-port']).toEqual(origin('default'));
    expect(out.timers).toEqual({ '@': origin('default'), hello: 10, inner: { dead: 40 } });
    expect(out.counters['@drops']).toEqual(origin('default'));
    expect(out['@mode']).toBeUndefined();
  });

  test('leaves a configured value equal to its default of origin intended under report-all-tagged', () => {
    const out = json(box(), { origin: bySchema, withDefaults: 'report-all-tagged' })['view-test:box'];
    expect(out['@mode']).toEqual({ 'ietf-netconf-with-defaults:default': true });
    expect(out['@hello']).toBeUndefined();
    expect(out.timers['@hello']).toEqual({ 'ietf-netconf-with-defaults:default': true });
  });

  test("keeps a node's own origin annotation and lets its descendants inherit it", () => {
    const tree = box();
    const counters = [...walk(tree)].find((n) => n.schema.name === 'counters')!;
    counters.annotations = [{ module: 'ietf-origin', name: 'origin', value: 'ietf-origin:learned' }];
    const out = json(tree, { origin: (_, parent) => parent ?? 'ietf-origin:intended' })['view-test:box'];
    expect(out.counters).toEqual({ '@': origin('learned'), seen: 7 });
    expect(out['@']).toEqual(origin('intended'));
  });

  test('states at the top of a resource the origin its ancestors give it', () => {
    const tree = box();
    const entry = [...walk(tree)].find((n) => n.schema.name === 'item')!;
    const resource = {
      ...tree,
      kind: 'resource' as const,
      parent: entry.schema.parent,
      children: new Map([[entry.schema, [entry]]]),
    };
    const learned: OriginRule = (n: DataNode, parent) =>
      n.schema.name === 'box' ? 'ietf-origin:learned' : parent;
    expect(json(resource, { origin: learned })).toEqual({
      'view-test:item': [{ '@': origin('learned'), name: 'a', weight: 5, hits: 3 }],
    });
  });

  test('writes the origin as an attribute in the ietf-origin namespace in XML', () => {
    expect(encodeXml(box(), { view: { origin: bySchema, fields: 'view-test:box(counters)' } })).toBe(
      '<box xmlns="urn:example:view-test" xmlns:or="urn:ietf:params:xml:ns:yang:ietf-origin" or:origin="or:intended"><counters xmlns:or="urn:ietf:params:xml:ns:yang:ietf-origin" or:origin="or:system"><seen>7</seen></counters></box>',
    );
  });
});

describe('the view of a tree', () => {
  const box = () =>
    decodeJson(schemas.get('view-test')!, {
      'view-test:box': {
        mode: 'auto',
        note: 'n',
        timers: {},
        counters: { seen: 7 },
        item: [
          { name: 'a', weight: 5, hits: 3, part: [{ id: 1, size: 2, load: 9 }] },
          { name: 'b', weight: 6 },
        ],
      },
    });
  const json = (tree: InstanceTree, view: TreeView) => JSON.parse(encodeJson(tree, { view }));

  test('counts depth from the datastore, so top-level nodes are level 2 (RFC 8040 section 4.8.2)', () => {
    expect(json(box(), { depth: 1 })).toEqual({});
    expect(json(box(), { depth: 2 })).toEqual({ 'view-test:box': {} });
    expect(json(box(), { depth: 3 })['view-test:box']).toEqual({
      mode: 'auto',
      note: 'n',
      timers: {},
      counters: {},
      item: [{}, {}],
    });
  });

  test('keeps what nested fields paths select, and the keys of each entry kept (RFC 8040 section 4.8.3)', () => {
    expect(json(box(), { fields: 'view-test:box(item/part/size;counters)' })).toEqual({
      'view-test:box': {
        counters: { seen: 7 },
        item: [{ name: 'a', part: [{ id: 1, size: 2 }] }, { name: 'b' }],
      },
    });
  });

  test('trims the values equal to their defaults (RFC 6243 section 3.2)', () => {
    const out = json(box(), { withDefaults: 'trim' })['view-test:box'];
    expect(out.mode).toBeUndefined();
    expect(out.item).toEqual([
      { name: 'a', hits: 3, part: [{ id: 1, size: 2, load: 9 }] },
      { name: 'b', weight: 6 },
    ]);
  });

  test('adds the defaults and tags them with report-all-tagged, in JSON and in XML (RFC 6243 section 3.4)', () => {
    const view: TreeView = {
      withDefaults: 'report-all-tagged',
      fields: 'view-test:box(mode;note;timers;tcp-port)',
    };
    expect(json(box(), view)).toEqual({
      'view-test:box': {
        mode: 'auto',
        '@mode': { 'ietf-netconf-with-defaults:default': true },
        note: 'n',
        timers: {
          hello: 10,
          '@hello': { 'ietf-netconf-with-defaults:default': true },
          inner: { dead: 40, '@dead': { 'ietf-netconf-with-defaults:default': true } },
        },
        'tcp-port': 830,
        '@tcp-port': { 'ietf-netconf-with-defaults:default': true },
      },
    });
    const xml = encodeXml(box(), { view });
    expect(xml).toContain(
      '<mode xmlns:wd="urn:ietf:params:xml:ns:netconf:default:1.0" wd:default="true">auto</mode>',
    );
    expect(xml).toContain('<note>n</note>');
  });

  test('writes configuration only with content=config, defaults of state left out too', () => {
    const out = json(box(), { content: 'config', withDefaults: 'report-all' })['view-test:box'];
    expect(out.counters).toBeUndefined();
    expect(out.uptime).toBeUndefined();
    expect(out.item[0]).toEqual({ name: 'a', weight: 5, part: [{ id: 1, size: 2 }] });
  });

  test('writes state with the keys that lead to it with content=nonconfig', () => {
    expect(json(box(), { content: 'nonconfig' })).toEqual({
      'view-test:box': { counters: { seen: 7 }, item: [{ name: 'a', hits: 3, part: [{ id: 1, load: 9 }] }] },
    });
  });

  test('adds state defaults, and no configuration default, with content=nonconfig and report-all', () => {
    expect(json(box(), { content: 'nonconfig', withDefaults: 'report-all' })).toEqual({
      'view-test:box': {
        counters: { drops: 0, seen: 7 },
        uptime: 0,
        item: [
          { name: 'a', hits: 3, stats: { errors: 0 }, part: [{ id: 1, load: 9 }] },
          { name: 'b', stats: { errors: 0 } },
        ],
      },
    });
  });

  /** A filter leaving out the nodes at `hidden` (paths of names and keys), recording the paths it is asked about. */
  const hiding = (...hidden: string[]): NodeFilter<string> & { asked: string[] } => {
    const asked: string[] = [];
    return {
      root: '',
      asked,
      child(parent, node) {
        const key = entryKey(node);
        const path = `${parent}/${node.schema.name}${key === undefined ? '' : `[${key}]`}`;
        asked.push(path);
        return hidden.includes(path) ? undefined : path;
      },
      keepsAllBelow: (state) => !hidden.some((h) => h.startsWith(`${state}/`)),
    };
  };
  const schemaOf = () => schemas.get('view-test')!;

  test('leaves out what a filter leaves out, with its subtree, byte for byte as a tree without it, in JSON and XML', () => {
    const view: TreeView = { filter: hiding('/box/item[a]/part[1]', '/box/counters') };
    const expected = decodeJson(schemaOf(), {
      'view-test:box': {
        mode: 'auto',
        note: 'n',
        timers: {},
        item: [
          { name: 'a', weight: 5, hits: 3 },
          { name: 'b', weight: 6 },
        ],
      },
    });
    expect(encodeJson(box(), { view })).toBe(encodeJson(expected));
    expect(encodeXml(box(), { view })).toBe(encodeXml(expected));
  });

  test("writes a list entry's keys whenever the entry is written, without asking the filter", () => {
    const filter = hiding('/box/item[b]/name', '/box/item[b]/weight');
    expect(json(box(), { filter })['view-test:box'].item).toEqual([
      { name: 'a', weight: 5, hits: 3, part: [{ id: 1, size: 2, load: 9 }] },
      { name: 'b' },
    ]);
    expect(filter.asked.some((p) => p.endsWith('/name'))).toBe(false);
  });

  test('asks nothing below a node under which the filter keeps all', () => {
    const filter = hiding('/box/note');
    json(box(), { filter });
    expect(filter.asked.filter((p) => p.startsWith('/box/item[a]/'))).toEqual([]);
    expect(filter.asked).toContain('/box/note');
  });

  /**
   * A filter that tells apart the list and leaf-list entries whose keys are in `named` (their key is
   * part of their state; every other entry's state is its parent's path and its name, the same for
   * all), leaves out the paths in `hidden`, and counts the times it judges each node. `named`
   * undefined: it cannot say, and every entry's state holds its key.
   */
  const byKey = (named: string[] | undefined, ...hidden: string[]) => {
    const judged = new Map<DataNode, number>();
    const filter: NodeFilter<string> = {
      root: '',
      child(parent, node) {
        judged.set(node, (judged.get(node) ?? 0) + 1);
        const key = entryKey(node);
        const told = key !== undefined && (named === undefined || named.includes(key));
        const path = `${parent}/${node.schema.name}${told ? `[${key}]` : ''}`;
        return hidden.includes(path) ? undefined : path;
      },
      keepsAllBelow: () => false,
      ...(named === undefined
        ? {}
        : {
            namedEntries: (_: string, schema: SchemaNode) =>
              schema.kind === 'list' || schema.kind === 'leaf-list' ? named : [],
          }),
    };
    return { filter, judged };
  };
  const items = (count: number) => ({
    'view-test:box': {
      ports: [22, 80, 8080],
      item: Array.from({ length: count }, (_, i) => ({ name: `n${i}`, part: [{ id: 1, size: 2 }] })),
    },
  });
  const itemsTree = (count: number) => decodeJson(schemaOf(), items(count));
  /** `items(count)` without the items and ports that `drop` says. */
  const itemsWithout = (count: number, drop: (name: string) => boolean) => {
    const { item, ports } = items(count)['view-test:box'];
    return decodeJson(schemaOf(), {
      'view-test:box': {
        ports: ports.filter((p) => !drop(String(p))),
        item: item.filter((i) => !drop(i.name)),
      },
    });
  };
  const judgedNames = (judged: Map<DataNode, number>, schema: string) =>
    [...judged.keys()].filter((n) => n.schema.name === schema).map((n) => entryKey(n));

  test('judges once what a walk for the top-level instances judged before the encoder that follows it', () => {
    for (const encode of [encodeJson, encodeXml]) {
      const tree = itemsTree(200);
      const alone = byKey(undefined, '/box/item[n7]');
      const expected = encode(tree, { view: { filter: alone.filter } });
      const { filter, judged } = byKey(undefined, '/box/item[n7]');
      const view: TreeView = { filter };
      expect(viewedTopLevel(tree, view).map((t) => t.node.schema.name)).toEqual(['box']);
      expect(encode(tree, { view })).toBe(expected);
      // Each node judged as often as by the encoder alone: the walk's judgements served the encoder.
      expect(judged.size).toBe(alone.judged.size);
      expect(Math.max(...judged.values())).toBe(Math.max(...alone.judged.values()));
      // They serve it once: a later encoder judges afresh.
      encode(tree, { view });
      expect(Math.max(...judged.values())).toBe(Math.max(...alone.judged.values()) + 1);
    }
  });

  test('leaves out exactly the entries a filter names by key and denies, finding them by key and judging one other for the rest', () => {
    const expected = itemsWithout(100, (name) => ['n7', 'n42', '8080'].includes(name));
    for (const encode of [encodeJson, encodeXml]) {
      const hidden = ['/box/item[n7]', '/box/item[n42]', '/box/ports[8080]'];
      const { filter, judged } = byKey(['n7', 'n42', 'absent', '8080'], ...hidden);
      expect(encode(itemsTree(100), { view: { filter } })).toBe(encode(expected));
      // The entries named and the first entry not named; a named key with no entry costs nothing.
      expect(judgedNames(judged, 'item').sort()).toEqual(['n0', 'n42', 'n7']);
      expect(judgedNames(judged, 'ports').sort()).toEqual(['22', '8080']);
    }
  });

  test('keeps only the entries a filter names by key and permits when the others are left out, in document order', () => {
    const expected = itemsWithout(100, (name) => !['n7', 'n42', '8080'].includes(name));
    for (const encode of [encodeJson, encodeXml]) {
      const { filter, judged } = byKey(['n42', 'n7', 'absent', '8080'], '/box/item', '/box/ports');
      expect(encode(itemsTree(100), { view: { filter } })).toBe(encode(expected));
      expect(judgedNames(judged, 'item').sort()).toEqual(['n0', 'n42', 'n7']);
    }
  });

  test('writes a group as it is when the entries a filter names get the answer of the rest', () => {
    const { filter } = byKey(['n7', 'n42'], '/box/item[n7]/part');
    const out = JSON.parse(encodeJson(itemsTree(100), { view: { filter } }))['view-test:box'];
    expect(out.item).toHaveLength(100);
    expect(out.item[7]).toEqual({ name: 'n7' });
    expect(out.item[42]).toEqual({ name: 'n42', part: [{ id: 1, size: 2 }] });
  });

  test('judges each node at most once per walk, whether its group is judged alike, by key or one by one, in JSON and XML', () => {
    for (const named of [[], ['n1', 'n3'], undefined]) {
      for (const encode of [encodeJson, encodeXml]) {
        const { filter, judged } = byKey(named, '/box/item[n3]/part');
        const tree = itemsTree(5);
        encode(tree, { view: { filter } });
        expect(judged.size, JSON.stringify(named)).toBeGreaterThan(0);
        expect(Math.max(...judged.values()), JSON.stringify(named)).toBe(1);
        // Below the entries not named, every part is judged as it is written.
        expect(judgedNames(judged, 'part')).toHaveLength(5);
      }
    }
  });

  /**
   * The chunks `encode` yields for `tree` under `view`, each empty one (a step) with the number of
   * nodes `judged` holds when it is yielded.
   */
  const stepsOf = (
    encode: typeof encodeJsonChunks | typeof encodeXmlChunks,
    tree: InstanceTree,
    view: TreeView,
    judged: Map<DataNode, number>,
  ) => {
    const text: string[] = [];
    const judgedAtSteps: number[] = [];
    for (const chunk of encode(tree, { view })) {
      if (chunk === '') judgedAtSteps.push(judged.size);
      else text.push(chunk);
    }
    return { text: text.join(''), judgedAtSteps };
  };

  test('judges a big list it cannot tell apart by key in steps, an empty chunk every few dozen entries, before writing any, in JSON and XML', () => {
    const count = 2000;
    const keep = (name: string) => name === 'n1999' || name === '80';
    const hidden = [...items(count)['view-test:box'].item.map((i) => i.name), '22', '8080']
      .filter((name) => !keep(name))
      .map((name) => (name.startsWith('n') ? `/box/item[${name}]` : `/box/ports[${name}]`));
    for (const [encode, whole] of [
      [encodeJsonChunks, encodeJson],
      [encodeXmlChunks, encodeXml],
    ] as const) {
      const { filter, judged } = byKey(undefined, ...hidden);
      const { text, judgedAtSteps } = stepsOf(encode, itemsTree(count), { filter }, judged);
      expect(text).toBe(whole(itemsWithout(count, (name) => !keep(name))));
      // A step at least every ITEMS_PER_STEP entries judged, from the first ones to the last ones.
      expect(judgedAtSteps.length).toBeGreaterThanOrEqual(Math.floor(count / ITEMS_PER_STEP) - 1);
      const gaps = judgedAtSteps.map((n, i) => n - (judgedAtSteps[i - 1] ?? 0));
      expect(Math.max(...gaps)).toBeLessThanOrEqual(ITEMS_PER_STEP);
      expect(judgedAtSteps.at(-1)).toBeGreaterThan(count - 2 * ITEMS_PER_STEP);
    }
  });

  test('yields no step for a big list a filter judges by key: it looks at the entries named and one other', () => {
    const { filter, judged } = byKey(['n7'], '/box/item[n7]');
    const { text, judgedAtSteps } = stepsOf(encodeJsonChunks, itemsTree(2000), { filter }, judged);
    expect(judgedAtSteps).toEqual([]);
    expect(text).toBe(encodeJson(itemsWithout(2000, (name) => name === 'n7')));
  });

  test('finds and places the entries a filter names in a big list not indexed yet in steps, in JSON and XML', () => {
    const count = 3 * 64 * ITEMS_PER_STEP;
    const named = ['n12000', 'n9000'];
    for (const [encode, whole] of [
      [encodeJsonChunks, encodeJson],
      [encodeXmlChunks, encodeXml],
    ] as const) {
      const { filter, judged } = byKey(named, ...named.map((name) => `/box/item[${name}]`));
      // A copy has no key index: the entries named are found by a scan, then placed by another.
      const { text, judgedAtSteps } = stepsOf(encode, cloneTree(itemsTree(count)), { filter }, judged);
      expect(text).toBe(whole(itemsWithout(count, (name) => named.includes(name))));
      expect(judgedAtSteps.length).toBeGreaterThanOrEqual(Math.floor(12_000 / ITEMS_PER_STEP));
    }
  });

  test("looks below a big list's entries for state with content=nonconfig in steps, byte for byte as in place", () => {
    const tree = itemsTree(2000);
    const expected = encodeJson(applyContent(cloneTree(tree), 'nonconfig'));
    const chunks = [...encodeJsonChunks(tree, { view: { content: 'nonconfig' } })];
    expect(chunks.filter((c) => c === '').length).toBeGreaterThanOrEqual(Math.floor(2000 / ITEMS_PER_STEP));
    expect(chunks.join('')).toBe(expected);
  });

  test('leaves a big list whose schema holds no state out of content=nonconfig without looking at its entries', () => {
    const jukebox = schemas.get('example-jukebox')!;
    const artist = Array.from({ length: 2000 }, (_, i) => ({
      name: `a${i}`,
      album: [{ name: 'x', year: 2000 }],
    }));
    const tree = decodeJson(jukebox, {
      'example-jukebox:jukebox': { library: { artist, 'artist-count': 2000 } },
    });
    const chunks = [...encodeJsonChunks(tree, { view: { content: 'nonconfig' } })];
    // No step: the look-ahead for state takes one every ITEMS_PER_STEP instances it looks at.
    expect(chunks.filter((c) => c === '')).toEqual([]);
    expect(JSON.parse(chunks.join(''))).toEqual({
      'example-jukebox:jukebox': { library: { 'artist-count': 2000 } },
    });
    expect(chunks.join('')).toBe(encodeJson(applyContent(cloneTree(tree), 'nonconfig')));
  });

  test('keeps a configuration ancestor with content=nonconfig by the states decided by key', () => {
    const tree = () =>
      decodeJson(schemaOf(), {
        'view-test:box': {
          item: [
            { name: 'a', hits: 3 },
            { name: 'b', hits: 4 },
          ],
        },
      });
    const { filter } = byKey(['a'], '/box/item[a]/hits');
    expect(json(tree(), { filter, content: 'nonconfig' })).toEqual({
      'view-test:box': { item: [{ name: 'b', hits: 4 }] },
    });
  });

  test('composes with fields, depth and with-defaults: they apply to what the filter keeps', () => {
    const filter = hiding('/box/item[a]/part[1]', '/box/mode');
    expect(json(box(), { filter, fields: 'view-test:box(item/part/size;counters)' })).toEqual({
      'view-test:box': { counters: { seen: 7 }, item: [{ name: 'a' }, { name: 'b' }] },
    });
    expect(json(box(), { filter, depth: 3 })['view-test:box']).toEqual({
      note: 'n',
      timers: {},
      counters: {},
      item: [{}, {}],
    });
    // A default is not written in place of a node the filter leaves out.
    expect(json(box(), { filter, withDefaults: 'report-all' })['view-test:box'].mode).toBeUndefined();
  });

  test('keeps a configuration ancestor with content=nonconfig only when the filter keeps state below it', () => {
    const filter = hiding('/box/item[a]/hits', '/box/item[a]/part[1]/load');
    expect(json(box(), { filter, content: 'nonconfig' })).toEqual({
      'view-test:box': { counters: { seen: 7 } },
    });
    expect(encodeXml(box(), { view: { filter, content: 'nonconfig' } })).toBe(
      encodeXml(decodeJson(schemaOf(), { 'view-test:box': { counters: { seen: 7 } } })),
    );
  });

  test('streams a large tree in chunks without changing it', () => {
    const schema = schemas.get('view-test')!;
    const item = Array.from({ length: 20_000 }, (_, i) => ({ name: `n${i}`, part: [{ id: 1 }] }));
    const tree = decodeJson(schema, { 'view-test:box': { item } });
    const chunks = [...encodeJsonChunks(tree, { view: { withDefaults: 'report-all', depth: 4 } })];
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(encodeJson(applyDepth(applyWithDefaults(cloneTree(tree), 'report-all'), 4)));
    expect(encodeJson(tree)).toBe(JSON.stringify({ 'view-test:box': { item } }));
  });
});
