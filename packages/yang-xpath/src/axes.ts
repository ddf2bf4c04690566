import type { Axis } from './ast.js';
import type { XPathNavigator } from './navigator.js';
import { UNITS_PER_STEP, type WorkBudget } from './work.js';

/** A compiled node test: `accept` decides; `named` lets the child axis use `childrenNamed`. */
export interface NodeMatcher<N> {
  readonly accept: (node: N, nav: XPathNavigator<N>) => boolean;
  readonly named: { readonly namespace: string; readonly localName: string } | undefined;
}

/** The descendants of `node` in document order (pre-order), walked iteratively as they are asked for. */
function* descendants<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  const stack: Iterator<N>[] = [nav.children(node)[Symbol.iterator]()];
  while (stack.length > 0) {
    const step = stack[stack.length - 1]!.next();
    if (step.done) {
      stack.pop();
      continue;
    }
    const child = step.value;
    yield child;
    if (nav.kind(child) === 'element') stack.push(nav.children(child)[Symbol.iterator]());
  }
}

/** The descendants of `node` in reverse document order (reverse pre-order: children last to first, each after its own descendants). */
function* descendantsReverse<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  const stack: { readonly children: N[]; next: number }[] = [];
  const enter = (parent: N): void => {
    const children = [...nav.children(parent)];
    stack.push({ children, next: children.length - 1 });
  };
  enter(node);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < 0) {
      stack.pop();
      // the parent of this level comes after all its descendants
      if (stack.length > 0) {
        const below = stack[stack.length - 1]!;
        yield below.children[below.next--]!;
      }
      continue;
    }
    const child = top.children[top.next]!;
    if (nav.kind(child) === 'element') {
      enter(child);
      continue;
    }
    top.next--;
    yield child;
  }
}

function siblings<N>(node: N, nav: XPathNavigator<N>): { list: N[]; index: number } | undefined {
  if (nav.kind(node) === 'attribute') return undefined;
  const parent = nav.parent(node);
  if (parent === undefined) return undefined;
  const list = [...nav.children(parent)];
  return { list, index: list.indexOf(node) };
}

function* followingSiblings<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  const s = siblings(node, nav);
  if (s === undefined) return;
  for (let i = s.index + 1; i < s.list.length; i++) yield s.list[i]!;
}

function* precedingSiblings<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  const s = siblings(node, nav);
  if (s === undefined) return;
  for (let i = s.index - 1; i >= 0; i--) yield s.list[i]!;
}

function* ancestors<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  for (let p = nav.parent(node); p !== undefined; p = nav.parent(p)) yield p;
}

function* following<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  let start = node;
  if (nav.kind(node) === 'attribute') {
    // the element's children follow its attributes
    const owner = nav.parent(node);
    if (owner === undefined) return;
    yield* descendants(owner, nav);
    start = owner;
  }
  for (let n: N | undefined = start; n !== undefined; n = nav.parent(n)) {
    for (const sibling of followingSiblings(n, nav)) {
      yield sibling;
      yield* descendants(sibling, nav);
    }
  }
}

function* preceding<N>(node: N, nav: XPathNavigator<N>): Generator<N, void, undefined> {
  let start = node;
  if (nav.kind(node) === 'attribute') {
    const owner = nav.parent(node);
    if (owner === undefined) return;
    start = owner;
  }
  for (let n: N | undefined = start; n !== undefined; n = nav.parent(n)) {
    for (const sibling of precedingSiblings(n, nav)) {
      yield* descendantsReverse(sibling, nav);
      yield sibling;
    }
  }
}

/**
 * The nodes on `axis` from `node` in proximity order (XPath 1.0 section 2.4: document order for
 * forward axes, reverse document order for reverse axes), produced as they are asked for, so that a
 * walk of a whole tree can stop between any two nodes. The child axis is narrowed by
 * `childrenNamed` when `match` names one element; the caller still applies `match.accept`.
 */
export function axisCandidates<N>(
  axis: Axis,
  node: N,
  nav: XPathNavigator<N>,
  match: NodeMatcher<N>,
): Iterable<N> {
  switch (axis) {
    case 'child': {
      const named = match.named;
      if (named !== undefined && nav.childrenNamed)
        return nav.childrenNamed(node, named.namespace, named.localName);
      return nav.children(node);
    }
    case 'self':
      return [node];
    case 'parent': {
      const parent = nav.parent(node);
      return parent === undefined ? [] : [parent];
    }
    case 'attribute':
      return nav.attributes && nav.kind(node) === 'element' ? nav.attributes(node) : [];
    case 'namespace':
      // the navigator exposes no namespace nodes: the axis is empty
      return [];
    case 'descendant-or-self':
      return selfThen(node, descendants(node, nav));
    case 'descendant':
      return descendants(node, nav);
    case 'ancestor-or-self':
      return selfThen(node, ancestors(node, nav));
    case 'ancestor':
      return ancestors(node, nav);
    case 'following-sibling':
      return followingSiblings(node, nav);
    case 'preceding-sibling':
      return precedingSiblings(node, nav);
    case 'following':
      return following(node, nav);
    case 'preceding':
      return preceding(node, nav);
  }
}

function* selfThen<N>(node: N, rest: Iterable<N>): Generator<N, void, undefined> {
  yield node;
  yield* rest;
}

/**
 * The nodes on `axis` from `node` that pass `match`, in proximity order (see {@link axisCandidates}),
 * spending from `budget` a unit for every node tested.
 */
export function axisNodes<N>(
  axis: Axis,
  node: N,
  nav: XPathNavigator<N>,
  match: NodeMatcher<N>,
  budget: WorkBudget,
): N[] {
  const out: N[] = [];
  // the axes of one level, which `must` and leafref paths use most, without an iterable in between
  switch (axis) {
    case 'child': {
      const named = match.named;
      if (named !== undefined && nav.childrenNamed) {
        for (const child of nav.childrenNamed(node, named.namespace, named.localName)) out.push(child);
        budget.spend(out.length);
        return out;
      }
      let tested = 0;
      for (const child of nav.children(node)) {
        tested++;
        if (match.accept(child, nav)) out.push(child);
      }
      budget.spend(tested);
      return out;
    }
    case 'self':
      budget.spend(1);
      if (match.accept(node, nav)) out.push(node);
      return out;
    case 'parent': {
      budget.spend(1);
      const parent = nav.parent(node);
      if (parent !== undefined && match.accept(parent, nav)) out.push(parent);
      return out;
    }
    default: {
      let tested = 0;
      for (const candidate of axisCandidates(axis, node, nav, match)) {
        // a walk of a whole tree stops as soon as it passes the budget, not at its end
        if (++tested % UNITS_PER_STEP === 0) budget.spend(UNITS_PER_STEP);
        if (match.accept(candidate, nav)) out.push(candidate);
      }
      budget.spend(tested % UNITS_PER_STEP);
      return out;
    }
  }
}
