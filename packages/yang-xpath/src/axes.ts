import type { Axis } from './ast.js';
import type { XPathNavigator } from './navigator.js';

/** A compiled node test: `accept` decides; `named` lets the child axis use `childrenNamed`. */
export interface NodeMatcher<N> {
  readonly accept: (node: N, nav: XPathNavigator<N>) => boolean;
  readonly named: { readonly namespace: string; readonly localName: string } | undefined;
}

/** Pushes the descendants of `node` in document order (pre-order), iteratively. */
function pushDescendants<N>(node: N, nav: XPathNavigator<N>, match: NodeMatcher<N>, out: N[]): void {
  const stack: Iterator<N>[] = [nav.children(node)[Symbol.iterator]()];
  while (stack.length > 0) {
    const step = stack[stack.length - 1]!.next();
    if (step.done) {
      stack.pop();
      continue;
    }
    const child = step.value;
    if (match.accept(child, nav)) out.push(child);
    if (nav.kind(child) === 'element') stack.push(nav.children(child)[Symbol.iterator]());
  }
}

/** Pushes the descendants of `node` in reverse document order (reverse pre-order). */
function pushDescendantsReverse<N>(node: N, nav: XPathNavigator<N>, match: NodeMatcher<N>, out: N[]): void {
  const forward: N[] = [];
  pushDescendants(node, nav, match, forward);
  for (let i = forward.length - 1; i >= 0; i--) out.push(forward[i]!);
}

function siblings<N>(node: N, nav: XPathNavigator<N>): { list: N[]; index: number } | undefined {
  if (nav.kind(node) === 'attribute') return undefined;
  const parent = nav.parent(node);
  if (parent === undefined) return undefined;
  const list = [...nav.children(parent)];
  return { list, index: list.indexOf(node) };
}

/**
 * The nodes on `axis` from `node` that pass `match`, in proximity order (XPath 1.0 section 2.4):
 * document order for forward axes, reverse document order for reverse axes.
 */
export function axisNodes<N>(axis: Axis, node: N, nav: XPathNavigator<N>, match: NodeMatcher<N>): N[] {
  const out: N[] = [];
  switch (axis) {
    case 'child': {
      const named = match.named;
      if (named !== undefined && nav.childrenNamed) {
        for (const child of nav.childrenNamed(node, named.namespace, named.localName)) out.push(child);
        return out;
      }
      for (const child of nav.children(node)) if (match.accept(child, nav)) out.push(child);
      return out;
    }
    case 'self':
      if (match.accept(node, nav)) out.push(node);
      return out;
    case 'parent': {
      const parent = nav.parent(node);
      if (parent !== undefined && match.accept(parent, nav)) out.push(parent);
      return out;
    }
    case 'attribute':
      if (nav.attributes && nav.kind(node) === 'element') {
        for (const attr of nav.attributes(node)) if (match.accept(attr, nav)) out.push(attr);
      }
      return out;
    case 'namespace':
      // the navigator exposes no namespace nodes: the axis is empty
      return out;
    case 'descendant-or-self':
      if (match.accept(node, nav)) out.push(node);
      pushDescendants(node, nav, match, out);
      return out;
    case 'descendant':
      pushDescendants(node, nav, match, out);
      return out;
    case 'ancestor-or-self':
      if (match.accept(node, nav)) out.push(node);
      for (let p = nav.parent(node); p !== undefined; p = nav.parent(p))
        if (match.accept(p, nav)) out.push(p);
      return out;
    case 'ancestor':
      for (let p = nav.parent(node); p !== undefined; p = nav.parent(p))
        if (match.accept(p, nav)) out.push(p);
      return out;
    case 'following-sibling': {
      const s = siblings(node, nav);
      if (s === undefined) return out;
      for (let i = s.index + 1; i < s.list.length; i++)
        if (match.accept(s.list[i]!, nav)) out.push(s.list[i]!);
      return out;
    }
    case 'preceding-sibling': {
      const s = siblings(node, nav);
      if (s === undefined) return out;
      for (let i = s.index - 1; i >= 0; i--) if (match.accept(s.list[i]!, nav)) out.push(s.list[i]!);
      return out;
    }
    case 'following': {
      let start = node;
      if (nav.kind(node) === 'attribute') {
        // the element's children follow its attributes
        const owner = nav.parent(node);
        if (owner === undefined) return out;
        pushDescendants(owner, nav, match, out);
        start = owner;
      }
      for (let n: N | undefined = start; n !== undefined; n = nav.parent(n)) {
        const s = siblings(n, nav);
        if (s === undefined) continue;
        for (let i = s.index + 1; i < s.list.length; i++) {
          const sibling = s.list[i]!;
          if (match.accept(sibling, nav)) out.push(sibling);
          pushDescendants(sibling, nav, match, out);
        }
      }
      return out;
    }
    case 'preceding': {
      let start = node;
      if (nav.kind(node) === 'attribute') {
        const owner = nav.parent(node);
        if (owner === undefined) return out;
        start = owner;
      }
      for (let n: N | undefined = start; n !== undefined; n = nav.parent(n)) {
        const s = siblings(n, nav);
        if (s === undefined) continue;
        for (let i = s.index - 1; i >= 0; i--) {
          const sibling = s.list[i]!;
          pushDescendantsReverse(sibling, nav, match, out);
          if (match.accept(sibling, nav)) out.push(sibling);
        }
      }
      return out;
    }
  }
}
