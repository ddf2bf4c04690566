import { expect, test } from 'vitest';
import { compileSchema, parseModule } from '../src/index';

const mod = (name: string, body: string) =>
  parseModule(`module ${name} { yang-version 1.1; namespace "urn:${name}"; prefix ${name};\n${body}\n}`, {
    file: `${name}.yang`,
  });

const shared = mod(
  'shared',
  `
  grouping address { leaf ip { type string; } leaf port { type uint16; } }
  grouping endpoint { leaf name { type string; } uses address; }
  grouping timer { leaf interval { type uint32; } leaf jitter { type uint32; } }
  `,
);

const user = mod(
  'user',
  `
  import shared { prefix s; }
  container server {
    uses s:address;
    leaf enabled { type boolean; }
    container peer { uses s:endpoint; }
    choice transport { case tcp { container tcp-options { uses s:address; } } case udp { uses s:timer; } }
  }
  augment "/user:server/user:peer" { leaf note { type string; } }
  `,
);

const tree = compileSchema([shared, user]);

test('names the grouping whose uses created a node, by its defining module', () => {
  expect(tree.find('/user:server/ip')?.grouping).toBe('shared:address');
  expect(tree.find('/user:server/port')?.grouping).toBe('shared:address');
});

test('names the outermost grouping when one grouping uses another', () => {
  expect(tree.find('/user:server/peer/name')?.grouping).toBe('shared:endpoint');
  expect(tree.find('/user:server/peer/ip')?.grouping).toBe('shared:endpoint');
});

test('names no grouping for a node written in place or added by an augment', () => {
  expect(tree.find('/user:server/enabled')?.grouping).toBeUndefined();
  expect(tree.find('/user:server/peer')?.grouping).toBeUndefined();
  expect(tree.find('/user:server/peer/note')?.grouping).toBeUndefined();
});

test('names the grouping of the nodes a uses put in a case', () => {
  const udp = tree.find('/user:server/transport/udp');
  expect(udp?.grouping).toBeUndefined();
  expect(udp?.children.map((c) => c.grouping)).toEqual(['shared:timer', 'shared:timer']);
  expect(tree.find('/user:server/tcp-options/port')?.grouping).toBe('shared:address');
});
