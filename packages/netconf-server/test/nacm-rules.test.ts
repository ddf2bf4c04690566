import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { emptyConfig } from '../src/datastore.js';
import { Access, DEFAULT_CONFIG, readNacmConfig } from '../src/nacm/config.js';
import { denyFlags } from '../src/nacm/extensions.js';
import { compilePath, stepMatches } from '../src/nacm/path.js';
import { groupsOf, UserAccess } from '../src/nacm/rules.js';
import { APPENDIX_A, dataOf, nacmSchema } from './nacm-helpers.js';

let tree: SchemaTree;
beforeAll(async () => {
  tree = await nacmSchema();
});

const config = () => readNacmConfig(dataOf(tree, APPENDIX_A));

describe('reading /nacm', () => {
  test('an absent nacm container gives the RFC 8341 defaults', () => {
    expect(readNacmConfig(emptyConfig(tree))).toBe(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG).toMatchObject({
      enableNacm: true,
      readDefault: true,
      writeDefault: false,
      execDefault: true,
    });
  });

  test('an empty nacm container applies the schema defaults', () => {
    const c = readNacmConfig(dataOf(tree, '<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"/>'));
    expect(c).toMatchObject({ enableNacm: true, readDefault: true, writeDefault: false, execDefault: true });
  });

  test('groups, rule-lists and rules keep their order and kinds', () => {
    const c = config();
    expect(c.groups.get('limited')).toEqual(['wilma', 'bam-bam']);
    expect(c.ruleLists.map((l) => l.name)).toEqual([
      'guest-acl',
      'limited-acl',
      'guest-limited-acl',
      'admin-acl',
    ]);
    const limited = c.ruleLists[1]!;
    expect(limited.rules.map((r) => r.type.kind)).toEqual(['any', 'data', 'rpc', 'notification']);
    expect(limited.rules[1]!.access).toBe(Access.create | Access.read | Access.update | Access.delete);
    expect(c.ruleLists[3]!.rules[0]!.access).toBe(31);
  });

  test('a user belongs to every group that names it', () => {
    expect([...groupsOf(config(), 'wilma')]).toEqual(['limited']);
    expect([...groupsOf(config(), 'nobody')]).toEqual([]);
  });
});

describe('rule paths', () => {
  test('a prefix names a module by its YANG prefix or by its name', () => {
    const a = compilePath(tree, "/if:interfaces/if:interface[if:name='eth0']");
    const b = compilePath(tree, "/ietf-interfaces:interfaces/interface[name='eth0']");
    expect(a).toEqual(b);
    expect(a![1]!.keys.get('name')).toBe('eth0');
  });

  test('the path / covers all datastore contents', () => {
    expect(compilePath(tree, '/')).toEqual([]);
  });

  test('a path with an unknown prefix or bad syntax never matches', () => {
    expect(compilePath(tree, '/nope:interfaces')).toBeUndefined();
    expect(compilePath(tree, 'interfaces')).toBeUndefined();
    expect(compilePath(tree, "/if:interfaces/if:interface[name='x'")).toBeUndefined();
  });

  test('any path text compiles to steps or to nothing, without throwing', () => {
    const pieces = fc.constantFrom(
      '/',
      'if:',
      'interfaces',
      'interface',
      '[',
      ']',
      "name='a/b'",
      '=',
      '"',
      ' ',
      '.',
      ':',
      '*',
      'jbox:jukebox',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(pieces, { maxLength: 30 }).map((a) => a.join('')),
        ),
        (text) => {
          const compiled = compilePath(tree, text);
          expect(compiled === undefined || Array.isArray(compiled)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test('a very long path is refused', () => {
    expect(compilePath(tree, '/if:interfaces'.repeat(400))).toBeUndefined();
  });

  test('a step matches list entries by their key predicates', () => {
    const steps = compilePath(tree, "/if:interfaces/if:interface[if:name='eth0']")!;
    const list = tree.find('/ietf-interfaces:interfaces/interface')!;
    expect(stepMatches(steps[1]!, list, 'eth0')).toBe(true);
    expect(stepMatches(steps[1]!, list, 'eth1')).toBe(false);
  });
});

describe('extensions', () => {
  test('default-deny-all marks the nacm container and everything below it', () => {
    expect(denyFlags(tree.find('/ietf-netconf-acm:nacm')).denyAll).toBe(true);
    expect(denyFlags(tree.find('/ietf-netconf-acm:nacm/groups/group/name')).denyAll).toBe(true);
  });

  test('default-deny-write marks writes only', () => {
    const flags = denyFlags(tree.find('/example-secrets:secrets/key'));
    expect(flags).toEqual({ denyAll: false, denyWrite: true });
  });
});

describe('protocol operations (RFC 8341 section 3.4.4)', () => {
  test('a rule of the user decides before the defaults', () => {
    const wilma = new UserAccess(tree, config(), 'wilma');
    expect(wilma.rpcPermitted('example-ops', 'reboot', undefined)).toBe(false);
    expect(wilma.rpcPermitted('ietf-netconf', 'edit-config', undefined)).toBe(true);
  });

  test('admin may kill sessions; a user in no group may not, by default', () => {
    expect(
      new UserAccess(tree, config(), 'admin').rpcPermitted('ietf-netconf', 'kill-session', undefined),
    ).toBe(true);
    const nobody = new UserAccess(tree, config(), 'nobody');
    expect(nobody.rpcPermitted('ietf-netconf', 'kill-session', undefined)).toBe(false);
    expect(nobody.rpcPermitted('ietf-netconf', 'delete-config', undefined)).toBe(false);
    expect(nobody.rpcPermitted('ietf-netconf', 'get', undefined)).toBe(true);
  });

  test('close-session is always permitted', () => {
    const c = readNacmConfig(
      dataOf(
        tree,
        `<nacm xmlns="urn:ietf:params:xml:ns:yang:ietf-netconf-acm"><exec-default>deny</exec-default>
         <groups><group><name>g</name><user-name>u</user-name></group></groups>
         <rule-list><name>l</name><group>*</group><rule><name>r</name><access-operations>exec</access-operations><action>deny</action></rule></rule-list></nacm>`,
      ),
    );
    const u = new UserAccess(tree, c, 'u');
    expect(u.rpcPermitted('ietf-netconf', 'close-session', undefined)).toBe(true);
    expect(u.rpcPermitted('ietf-netconf', 'get', undefined)).toBe(false);
  });

  test('an rpc marked default-deny-all needs an explicit rule', () => {
    const wipe = tree.find('/example-secrets:wipe')!;
    expect(new UserAccess(tree, config(), 'wilma').rpcPermitted('example-secrets', 'wipe', wipe)).toBe(false);
    expect(new UserAccess(tree, config(), 'admin').rpcPermitted('example-secrets', 'wipe', wipe)).toBe(true);
  });
});

describe('notifications (RFC 8341 section 3.4.6)', () => {
  test('a notification-name rule drops that notification only', () => {
    const wilma = new UserAccess(tree, config(), 'wilma');
    const change = tree.find('/ietf-netconf-notifications:netconf-config-change')!;
    const start = tree.find('/ietf-netconf-notifications:netconf-session-start')!;
    expect(wilma.notificationPermitted(change)).toBe(false);
    expect(wilma.notificationPermitted(start)).toBe(true);
  });

  test('a notification marked default-deny-all reaches only users a rule permits', () => {
    const alarm = tree.find('/example-secrets:alarm')!;
    expect(new UserAccess(tree, config(), 'nobody').notificationPermitted(alarm)).toBe(false);
    expect(new UserAccess(tree, config(), 'andy').notificationPermitted(alarm)).toBe(true);
  });
});
