import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { Access, type NacmConfig, type NacmRule } from './config.js';
import { denyAllWithin, denyFlags } from './extensions.js';
import { type CompiledPath, compilePath, type PathStep, stepMatches } from './path.js';

/** Every write access operation (RFC 8341 section 3.2.2). */
const WRITE = Access.create | Access.update | Access.delete;

/** A rule ready for matching: its path compiled once per configuration. */
interface CompiledRule {
  readonly rule: NacmRule;
  /** Data rules: the path steps (`/` and rules without rule-type: none); undefined never matches. */
  readonly path: CompiledPath;
}

/**
 * Per data rule, how far an instance's ancestry has come along the rule's path: `-1` never
 * matches in this subtree, `path.length` matches this node and everything below it.
 */
export type MatchState = number[];

/** The groups `user` belongs to (RFC 8341 section 3.4.4 step 4, no external groups). */
export function groupsOf(config: NacmConfig, user: string): Set<string> {
  const groups = new Set<string>();
  for (const [name, users] of config.groups) if (users.includes(user)) groups.add(name);
  return groups;
}

/**
 * The rules of one user under one configuration (RFC 8341 section 3.4): the rule-lists of the
 * user's groups flattened in order, split per kind of request, paths compiled. Built once per
 * configuration change and user; every check then only walks the user's rules.
 */
export class UserAccess {
  readonly config: NacmConfig;
  private readonly rpcRules: NacmRule[] = [];
  private readonly notificationRules: NacmRule[] = [];
  private readonly dataRules: CompiledRule[] = [];

  constructor(tree: SchemaTree, config: NacmConfig, user: string) {
    this.config = config;
    const groups = groupsOf(config, user);
    // Step 5 of sections 3.4.4 to 3.4.6: a user in no group gets the defaults only.
    if (groups.size === 0) return;
    for (const list of config.ruleLists) {
      if (!list.groups.some((g) => g === '*' || groups.has(g))) continue;
      for (const rule of list.rules) {
        const kind = rule.type.kind;
        if ((kind === 'any' || kind === 'rpc') && rule.access & Access.exec) this.rpcRules.push(rule);
        if ((kind === 'any' || kind === 'notification') && rule.access & Access.read)
          this.notificationRules.push(rule);
        if (kind === 'any') this.dataRules.push({ rule, path: [] });
        else if (rule.type.kind === 'data')
          this.dataRules.push({ rule, path: compilePath(tree, rule.type.path) });
      }
    }
  }

  /** RFC 8341 section 3.4.4 steps 3 and 7 to 12: may the user run rpc `module:name`? */
  rpcPermitted(module: string, name: string, schema: SchemaNode | undefined): boolean {
    if (module === 'ietf-netconf' && name === 'close-session') return true;
    for (const r of this.rpcRules) {
      if (r.module !== '*' && r.module !== module) continue;
      if (r.type.kind === 'rpc' && r.type.name !== '*' && r.type.name !== name) continue;
      return r.permit;
    }
    if (schema !== undefined && denyFlags(schema).denyAll) return false;
    // Section 3.4.4 step 10: these two are sensitive whatever their module says.
    if (module === 'ietf-netconf' && (name === 'kill-session' || name === 'delete-config')) return false;
    return this.config.execDefault;
  }

  /** RFC 8341 section 3.4.6: may the user receive notification `schema` (a top-level one)? */
  notificationPermitted(schema: SchemaNode): boolean {
    for (const r of this.notificationRules) {
      if (r.module !== '*' && r.module !== schema.module) continue;
      if (r.type.kind === 'notification' && r.type.name !== '*' && r.type.name !== schema.name) continue;
      return r.permit;
    }
    if (denyFlags(schema).denyAll) return false;
    return this.config.readDefault;
  }

  /** The match states of the datastore root. */
  rootStates(): MatchState {
    return this.dataRules.map((r) => (r.path === undefined ? -1 : 0));
  }

  /** The match states of a child instance (`schema`, `key`) from its parent's; shared when unchanged. */
  childStates(parent: MatchState, schema: SchemaNode, key: string): MatchState {
    let out: MatchState | undefined;
    for (let i = 0; i < parent.length; i++) {
      const s = parent[i]!;
      const path = this.dataRules[i]!.path;
      if (s < 0 || path === undefined || s >= path.length) continue;
      out ??= parent.slice();
      out[i] = stepMatches(path[s]!, schema, key) ? s + 1 : -1;
    }
    return out ?? parent;
  }

  /**
   * The entry keys (the codec's `entryKey`: key values in key order joined by NUL, a leaf-list
   * entry's value) of the instances of `schema` below a node in `parent` that rules name, by every
   * key of a list or by a leaf-list value: {@link childStates} gives every other instance the same
   * states. Empty when no rule that can still match there names an instance of `schema`; undefined
   * when one names entries by only some of their keys (then no two entries can be said alike).
   */
  namedEntries(parent: MatchState, schema: SchemaNode): string[] | undefined {
    const named: string[] = [];
    for (let i = 0; i < parent.length; i++) {
      const s = parent[i]!;
      const path = this.dataRules[i]!.path;
      if (s < 0 || path === undefined || s >= path.length) continue;
      const step = path[s]!;
      if (step.name !== schema.name || step.module !== schema.module) continue;
      if (step.value !== undefined) {
        // A value predicate names a leaf-list entry; on anything else it matches no instance.
        if (schema.kind === 'leaf-list') named.push(step.value);
      } else if (step.keys.size > 0) {
        const key = keyOf(step, schema);
        if (key === null) return undefined;
        if (key !== undefined) named.push(key);
      }
    }
    return named;
  }

  /**
   * RFC 8341 section 3.4.5 steps 5 to 11 for one data node (or action, for `exec`): the first
   * matching rule of the user decides, else the default-deny extensions, else the defaults.
   */
  permitted(schema: SchemaNode, states: MatchState, access: number): boolean {
    for (let i = 0; i < states.length; i++) {
      const { rule, path } = this.dataRules[i]!;
      const s = states[i]!;
      if (s < 0 || !(rule.access & access) || s !== path!.length) continue;
      if (rule.module !== '*' && rule.module !== schema.module) continue;
      return rule.permit;
    }
    const flags = denyFlags(schema);
    if (flags.denyAll) return false;
    if (access === Access.read) return this.config.readDefault;
    if (access === Access.exec) return this.config.execDefault;
    return !flags.denyWrite && this.config.writeDefault;
  }

  /**
   * True when no create, update or delete at or below a node with match states `states` can be
   * permitted (RFC 8341 section 3.4.5): write-default denies, and no rule that permits a write can
   * still match there, so every node falls to a denying rule, a default-deny extension or the
   * default. Lets an edit be refused before its body is decoded.
   */
  writeDeniedWithin(states: MatchState): boolean {
    if (this.config.writeDefault) return false;
    for (let i = 0; i < states.length; i++) {
      const { rule } = this.dataRules[i]!;
      if (states[i]! >= 0 && rule.permit && rule.access & WRITE) return false;
    }
    return true;
  }

  /**
   * {@link writeDeniedWithin} for every instance of the top-level node `schema`: true when no write
   * at or below any of them can be permitted. Rules may name some entries of a top-level list or
   * leaf-list by key: there the match states of the root are judged instead, on the safe side.
   */
  writeDeniedWithinTop(schema: SchemaNode): boolean {
    const root = this.rootStates();
    const entries = schema.kind === 'list' || schema.kind === 'leaf-list';
    return this.writeDeniedWithin(entries ? root : this.childStates(root, schema, ''));
  }

  /**
   * True when every node below an instance of `schema` (with match states `states`) is readable
   * for sure, so a read need not walk it: read-default permits, no default-deny-all applies, and
   * every rule that could still match below it permits reading.
   */
  readableBelow(schema: SchemaNode, states: MatchState): boolean {
    if (!this.config.readDefault || denyFlags(schema).denyAll || denyAllWithin(schema)) return false;
    for (let i = 0; i < states.length; i++) {
      const { rule } = this.dataRules[i]!;
      if (states[i]! >= 0 && rule.access & Access.read && !rule.permit) return false;
    }
    return true;
  }
}

/**
 * The entry key that the key predicates of `step` name among the entries of list `schema`: undefined
 * when they name a leaf that is not one of its keys (the step matches no entry), null when they
 * leave some of its keys free.
 */
function keyOf(step: PathStep, schema: SchemaNode): string | undefined | null {
  const keys = schema.keyNodes;
  for (const name of step.keys.keys()) if (!keys.some((k) => k.name === name)) return undefined;
  if (step.keys.size < keys.length) return null;
  return keys.map((k) => step.keys.get(k.name)!).join('\u0000');
}
