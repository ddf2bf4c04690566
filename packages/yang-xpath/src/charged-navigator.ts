import type { AnyNavigator, AnyNode } from './context.js';
import type { WorkBudget } from './work.js';

/** Characters of string-values charged as one unit: reading them costs about a node visited. */
export const CHARACTERS_PER_UNIT = 16;

/**
 * `nav` with the string-values it gives charged to `budget`, a unit every
 * {@link CHARACTERS_PER_UNIT} characters: a node's string-value is the text of its whole subtree
 * (`string(/)` is the whole tree's), work that no axis counts, so that an expression asking for it
 * once for every node is bounded like one walking the tree once for every node. Every other method
 * is `nav`'s own, called on `nav`.
 */
export function chargedNavigator(nav: AnyNavigator, budget: WorkBudget): AnyNavigator {
  const charged: AnyNavigator = {
    root: (node) => nav.root(node),
    parent: (node) => nav.parent(node),
    children: (node) => nav.children(node),
    kind: (node) => nav.kind(node),
    localName: (node) => nav.localName(node),
    namespace: (node) => nav.namespace(node),
    stringValue: (node: AnyNode) => {
      const value = nav.stringValue(node);
      budget.spend(Math.floor(value.length / CHARACTERS_PER_UNIT));
      return value;
    },
  };
  // the optional methods only where `nav` has them: their absence chooses the engine's own way
  if (nav.attributes) charged.attributes = nav.attributes.bind(nav);
  if (nav.childrenNamed) charged.childrenNamed = nav.childrenNamed.bind(nav);
  if (nav.childrenByKey) charged.childrenByKey = nav.childrenByKey.bind(nav);
  if (nav.compareOrder) charged.compareOrder = nav.compareOrder.bind(nav);
  if (nav.schemaInfo) charged.schemaInfo = nav.schemaInfo.bind(nav);
  return charged;
}
