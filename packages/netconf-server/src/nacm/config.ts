import type { ChildHolder, DataNode, InstanceTree } from '@yangkit/yang-json-codec';

/** Namespace of ietf-netconf-acm (RFC 8341). */
export const NACM_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-acm';
/** Module name of ietf-netconf-acm. */
export const NACM_MODULE = 'ietf-netconf-acm';

/** The RFC 8341 access operations, as bits (`*` is all of them). */
export const Access = { create: 1, read: 2, update: 4, delete: 8, exec: 16 } as const;
/** Every access operation (`access-operations "*"`). */
export const ALL_ACCESS = 31;

/** What a rule applies to (RFC 8341 `rule-type` choice); `any` when no case is set. */
export type RuleType =
  | { readonly kind: 'any' }
  | { readonly kind: 'rpc'; readonly name: string }
  | { readonly kind: 'notification'; readonly name: string }
  | { readonly kind: 'data'; readonly path: string };

/** One `/nacm/rule-list/rule` entry. */
export interface NacmRule {
  readonly name: string;
  /** `module-name`: a module name or `*`. */
  readonly module: string;
  readonly type: RuleType;
  /** `access-operations` as {@link Access} bits. */
  readonly access: number;
  readonly permit: boolean;
}

/** One `/nacm/rule-list` entry. */
export interface NacmRuleList {
  readonly name: string;
  /** Group names; `*` applies to every group. */
  readonly groups: readonly string[];
  readonly rules: readonly NacmRule[];
}

/** The `/nacm` configuration, defaults applied (RFC 8341 section 3.5.2). */
export interface NacmConfig {
  readonly enableNacm: boolean;
  readonly readDefault: boolean;
  readonly writeDefault: boolean;
  readonly execDefault: boolean;
  /** group name -> user names. */
  readonly groups: ReadonlyMap<string, readonly string[]>;
  readonly ruleLists: readonly NacmRuleList[];
}

/** The configuration of an empty `/nacm`: enabled, read and exec permitted, write denied. */
export const DEFAULT_CONFIG: NacmConfig = {
  enableNacm: true,
  readDefault: true,
  writeDefault: false,
  execDefault: true,
  groups: new Map(),
  ruleLists: [],
};

/** The children of `node` named `name` (any schema node of that name: NACM names do not clash). */
function named(node: ChildHolder, name: string): DataNode[] {
  for (const [schema, nodes] of node.children ?? []) if (schema.name === name) return nodes;
  return [];
}

function leaf(node: DataNode, name: string): string | undefined {
  return named(node, name)[0]?.value;
}

/** RFC 8341 `access-operations`: `*` or bits `create read update delete exec`. */
function accessBits(value: string | undefined): number {
  if (value === undefined || value.trim() === '*') return ALL_ACCESS;
  let bits = 0;
  for (const word of value.trim().split(/\s+/)) {
    const bit = Access[word as keyof typeof Access];
    if (bit !== undefined) bits |= bit;
  }
  return bits;
}

function ruleOf(node: DataNode): NacmRule {
  const rpc = leaf(node, 'rpc-name');
  const notification = leaf(node, 'notification-name');
  const path = leaf(node, 'path');
  const type: RuleType =
    rpc !== undefined
      ? { kind: 'rpc', name: rpc }
      : notification !== undefined
        ? { kind: 'notification', name: notification }
        : path !== undefined
          ? { kind: 'data', path }
          : { kind: 'any' };
  return {
    name: leaf(node, 'name') ?? '',
    module: leaf(node, 'module-name') ?? '*',
    type,
    access: accessBits(leaf(node, 'access-operations')),
    permit: leaf(node, 'action') === 'permit',
  };
}

/**
 * Reads `/ietf-netconf-acm:nacm` from a datastore root (RFC 8341 section 3.5). An absent
 * container gives {@link DEFAULT_CONFIG}; rule-lists and rules keep their (user) order.
 */
export function readNacmConfig(root: InstanceTree): NacmConfig {
  const schema = root.schema.topLevel(NACM_MODULE, 'nacm');
  const nacm = schema === undefined ? undefined : root.children.get(schema)?.[0];
  if (nacm === undefined) return DEFAULT_CONFIG;
  const groups = new Map<string, string[]>();
  for (const container of named(nacm, 'groups')) {
    for (const g of named(container, 'group')) {
      groups.set(
        leaf(g, 'name') ?? '',
        named(g, 'user-name').map((u) => u.value ?? ''),
      );
    }
  }
  const ruleLists = named(nacm, 'rule-list').map((list) => ({
    name: leaf(list, 'name') ?? '',
    groups: named(list, 'group').map((g) => g.value ?? ''),
    rules: named(list, 'rule').map(ruleOf),
  }));
  return {
    enableNacm: leaf(nacm, 'enable-nacm') !== 'false',
    readDefault: leaf(nacm, 'read-default') !== 'deny',
    writeDefault: leaf(nacm, 'write-default') === 'permit',
    execDefault: leaf(nacm, 'exec-default') !== 'deny',
    groups,
    ruleLists,
  };
}
