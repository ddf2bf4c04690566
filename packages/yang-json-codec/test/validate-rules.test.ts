import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyEdit,
  ChangeLog,
  decodeJson,
  ITEMS_PER_STEP,
  type PathStep,
  validate,
  validateChanges,
  validateSteps,
} from '../src/index';

const MODULE = `module rules {
  yang-version 1.1;
  namespace "urn:example:rules";
  prefix r;
  container top {
    list server {
      key name;
      leaf name { type string; }
      leaf port { type uint16; }
    }
    leaf primary { type leafref { path "../server/name"; } }
    leaf pointer { type instance-identifier; }
    container limits {
      must "max >= min" { error-message "max must not be below min"; error-app-tag "limits-order"; }
      leaf min { type uint32; }
      leaf max { type uint32; }
    }
    leaf level { type uint8; }
    leaf extra { when "../level > 5"; type string; }
  }
  augment "/r:top/r:limits" {
    when "../level = 9";
    leaf boost { type boolean; }
  }
}`;

let schema: SchemaTree;
beforeAll(async () => {
  schema = await loadSchema({ texts: [MODULE], modules: ['rules'] });
});

const doc = (top: Record<string, unknown>) => decodeJson(schema, { 'rules:top': top }, { kind: 'config' });
const codes = (top: Record<string, unknown>) => validate(doc(top), { complete: true }).map((e) => e.code);

describe('must and when', () => {
  test('a false must reports its error-message and error-app-tag', () => {
    const [e] = validate(doc({ limits: { min: 5, max: 2 } }));
    expect([e?.code, e?.errorTag, e?.errorAppTag, e?.message]).toEqual([
      'MUST_VIOLATION',
      'operation-failed',
      'limits-order',
      'max must not be below min',
    ]);
    expect(e?.errorPath?.json).toBe('/rules:top/limits');
  });

  test('a true must passes', () => {
    expect(codes({ limits: { min: 1, max: 2 } })).toEqual([]);
  });

  test('a node whose when is false is refused with when-violation', () => {
    const [e] = validate(doc({ level: 1, extra: 'x' }));
    expect([e?.code, e?.errorTag, e?.errorAppTag, e?.errorPath?.json]).toEqual([
      'WHEN_VIOLATION',
      'unknown-element',
      'when-violation',
      '/rules:top/extra',
    ]);
    expect(codes({ level: 7, extra: 'x' })).toEqual([]);
  });

  test("the when of an augment is evaluated on the augment's target", () => {
    expect(codes({ level: 9, limits: { min: 1, max: 2, boost: true } })).toEqual([]);
    expect(codes({ level: 3, limits: { min: 1, max: 2, boost: true } })).toEqual(['WHEN_VIOLATION']);
  });
});

describe('require-instance', () => {
  test('a leafref to an entry among 10,000 is found through the key index', () => {
    const server = Array.from({ length: 10_000 }, (_, i) => ({ name: `s${i}` }));
    expect(codes({ server, primary: 's9999' })).toEqual([]);
    expect(codes({ server, primary: 'nope' })).toEqual(['DATA_MISSING']);
  });

  test('an instance-identifier to a missing instance is data-missing with instance-required', () => {
    const [e] = validate(doc({ server: [{ name: 'a' }], pointer: "/rules:top/server[name='b']" }), {
      complete: true,
    });
    expect([e?.code, e?.errorAppTag, e?.errorInfo?.['bad-value']]).toEqual([
      'DATA_MISSING',
      'instance-required',
      "/rules:top/server[name='b']",
    ]);
    expect(codes({ server: [{ name: 'b' }], pointer: "/rules:top/server[name='b']/port" })).toEqual([
      'DATA_MISSING',
    ]);
    expect(codes({ server: [{ name: 'b', port: 1 }], pointer: "/rules:top/server[name='b']/port" })).toEqual(
      [],
    );
  });
});

describe('validateChanges', () => {
  const steps = () => {
    const top = schema.find('/rules:top')!;
    const server = schema.find('/rules:top/server')!;
    return {
      top: { schema: top } as PathStep,
      server: (name: string): PathStep => ({ schema: server, keys: [{ name: 'name', value: name }] }),
    };
  };

  test('removing the target of a leafref reports the leafref', () => {
    const s = steps();
    const log = new ChangeLog(doc({ server: [{ name: 'a' }, { name: 'b' }], primary: 'a' }));
    applyEdit(log, { operation: 'delete', target: [s.top, s.server('a')] });
    const [e] = validateChanges(log.tree, log.since(), { config: true });
    expect([e?.code, e?.errorPath?.json]).toEqual(['DATA_MISSING', '/rules:top/primary']);
  });

  test('a constraint broken deep inside a subtree created whole is reported once', () => {
    const s = steps();
    const log = new ChangeLog(decodeJson(schema, {}, { kind: 'config' }));
    const top = doc({ limits: { min: 5, max: 2 }, level: 1, extra: 'x', server: [{ name: 'a', port: 1 }] });
    applyEdit(log, { operation: 'merge', target: [s.top], node: [...top.children.values()][0]![0]! });
    const errors = validateChanges(log.tree, log.since(), { config: true });
    expect(errors.map((e) => [e.code, e.errorPath?.json])).toEqual([
      ['MUST_VIOLATION', '/rules:top/limits'],
      ['WHEN_VIOLATION', '/rules:top/extra'],
    ]);
  });

  test('checks what the change can affect and leaves constraints elsewhere to validate', () => {
    const tree = doc({ limits: { min: 5, max: 2 }, level: 1 });
    const log = new ChangeLog(tree);
    const level = decodeJson(
      schema,
      { 'rules:level': 2 },
      { kind: 'resource', parent: schema.find('/rules:top')! },
    );
    const s = steps();
    applyEdit(log, {
      operation: 'merge',
      target: [s.top, { schema: schema.find('/rules:top/level')! }],
      node: [...level.children.values()][0]![0]!,
    });
    expect(validateChanges(log.tree, log.since(), { config: true })).toEqual([]);
    expect(validate(log.tree, { config: true }).map((e) => e.code)).toEqual(['MUST_VIOLATION']);
  });
});

describe('validateSteps', () => {
  /** The steps of a whole validation of `tree`, and its errors. */
  function stepsOf(tree: ReturnType<typeof doc>): { steps: number; errors: number } {
    const work = validateSteps(tree, { complete: true });
    let steps = 0;
    for (let next = work.next(); ; next = work.next(), steps++)
      if (next.done === true) return { steps, errors: next.value.length };
  }

  test('walks only what holds something to check: a node with a must, a when or a reference is a step of its own', () => {
    const server = Array.from({ length: 100 }, (_, i) => ({ name: `n${i}`, port: i }));
    // The entries hold nothing to check: they are not walked.
    expect(stepsOf(doc({ server }))).toEqual({ steps: 0, errors: 0 });
    const checked = stepsOf(doc({ server, limits: { min: 1, max: 2 }, level: 9, extra: 'x', primary: 'n1' }));
    // limits (a must), extra (a when) and primary (a leafref): a step each.
    expect(checked).toEqual({ steps: 3, errors: 0 });
  });

  test('the nodes walked on the way to those are a step every ITEMS_PER_STEP', async () => {
    const walked = await loadSchema({
      texts: [
        `module walked {
          namespace "urn:example:walked";
          prefix w;
          list entry {
            key name;
            leaf name { type string; }
            leaf note { type string; }
            container limits {
              must "not(max) or max >= min";
              leaf min { type uint8; }
              leaf max { type uint8; }
            }
          }
        }`,
      ],
      modules: ['walked'],
    });
    const walk = (entry: Record<string, unknown>[]) =>
      stepsOf(decodeJson(walked, { 'walked:entry': entry }, { kind: 'config' }));
    // The entries are walked, since each may hold limits; their leaves are not.
    const entries = Array.from({ length: 1000 }, (_, i) => ({ name: `e${i}`, note: 'x' }));
    expect(walk(entries)).toEqual({ steps: Math.floor(1000 / ITEMS_PER_STEP), errors: 0 });
    // With limits, a step each.
    expect(walk(entries.map((e) => ({ ...e, limits: { min: 1 } })))).toEqual({ steps: 1000, errors: 0 });
  });
});
