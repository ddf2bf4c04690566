import type { SchemaNode, SchemaTree } from '@yangkit/yang-schema';
import { Access, type NacmConfig } from './config.js';
import { type MatchState, UserAccess } from './rules.js';

const DATA = new Set(['container', 'list', 'leaf', 'leaf-list', 'anydata', 'anyxml']);

/**
 * What NACM (RFC 8341) under `config` (`AccessControl.currentConfig()`) lets `user` see of the
 * schema, for listing it (an API document, an explorer): a data node that the user may read, as
 * all its ancestors (section 3.4.5: an unreadable node hides its subtree); an rpc, or an action
 * below readable nodes, that the user may execute; a notification the user may receive. Rule
 * paths are matched by schema node alone, so a rule that names list keys counts for no entry.
 * Undefined when NACM is off: everything is listed.
 */
export function schemaVisibility(
  tree: SchemaTree,
  config: NacmConfig,
  user: string,
): ((node: SchemaNode) => boolean) | undefined {
  if (!config.enableNacm) return undefined;
  const access = new UserAccess(tree, config, user);
  const visible = new Set<SchemaNode>();
  // Choice and case pass their parent's states on; a node that is not visible hides its subtree.
  const walk = (node: SchemaNode, states: MatchState): void => {
    let own = states;
    let shown: boolean;
    if (node.kind === 'rpc') shown = access.rpcPermitted(node.module, node.name, node);
    else if (node.kind === 'notification') shown = access.notificationPermitted(node);
    else if (node.kind === 'action')
      shown = access.permitted(node, access.childStates(states, node, ''), Access.exec);
    else if (DATA.has(node.kind)) {
      own = access.childStates(states, node, '');
      shown = access.permitted(node, own, Access.read);
    } else shown = true;
    if (!shown) return;
    visible.add(node);
    if (node.kind !== 'rpc' && node.kind !== 'action' && node.kind !== 'notification')
      for (const c of node.children) walk(c, own);
  };
  const root = access.rootStates();
  for (const n of tree.children) walk(n, root);
  return (node) => visible.has(node);
}
