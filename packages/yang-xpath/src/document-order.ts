import { finishSteps, type Steps } from '@yangkit/xml';
import type { XPathNavigator } from './navigator.js';
import { WorkCounter } from './work.js';

/** Compares two nodes in document order; built once per sort so sibling indexes are reused. */
export type OrderComparator<N> = (a: N, b: N) => number;

/**
 * Derives document order from the tree (XPath 1.0 section 5): a node precedes its attributes, which
 * precede its children; siblings keep the order `children()` yields. Sibling indexes are found by
 * reading a parent's children only as far as a comparison needs, and kept for the comparator's
 * lifetime: comparisons in document order (a merge) read a long list a little at a time.
 */
export function createOrderComparator<N>(nav: XPathNavigator<N>): OrderComparator<N> {
  if (nav.compareOrder) return nav.compareOrder.bind(nav);
  const indexes = new Map<N, number>();
  /** Per parent: its children not read yet, and the index of the next. */
  const reading = new Map<N, { readonly children: Iterator<N>; next: number }>();

  const indexOf = (node: N, parent: N): number => {
    const known = indexes.get(node);
    if (known !== undefined) return known;
    let read = reading.get(parent);
    if (read === undefined) {
      if (nav.attributes) {
        const attrs = [...nav.attributes(parent)];
        // attributes come before all children: negative indexes
        let i = 0;
        for (const attr of attrs) indexes.set(attr, i++ - attrs.length);
        if (indexes.has(node)) return indexes.get(node)!;
      }
      reading.set(parent, (read = { children: nav.children(parent)[Symbol.iterator](), next: 0 }));
    }
    for (let child = read.children.next(); child.done !== true; child = read.children.next()) {
      const index = read.next++;
      indexes.set(child.value, index);
      if (child.value === node) return index;
    }
    return 0;
  };

  const depth = (node: N): number => {
    let d = 0;
    for (let p = nav.parent(node); p !== undefined; p = nav.parent(p)) d++;
    return d;
  };

  // no arrays per comparison: a merge of big node-sets compares millions of times
  return (a, b) => {
    if (a === b) return 0;
    const depthA = depth(a);
    const depthB = depth(b);
    let x = a;
    let y = b;
    for (let d = depthA; d > depthB; d--) x = nav.parent(x)!;
    for (let d = depthB; d > depthA; d--) y = nav.parent(y)!;
    // one is an ancestor of the other: the ancestor comes first
    if (x === y) return depthA - depthB;
    for (;;) {
      const parent = nav.parent(x);
      if (parent === undefined) return 0; // different trees: no order
      const other = nav.parent(y)!;
      if (parent === other) return indexOf(x, parent) - indexOf(y, parent);
      x = parent;
      y = other;
    }
  };
}

/** Sorts nodes into document order and drops duplicates. */
export function sortUnique<N>(nodes: N[], compare: OrderComparator<N>): N[] {
  if (nodes.length < 2) return nodes;
  const unique = [...new Set(nodes)];
  unique.sort(compare);
  return unique;
}

/** Merges two node-sets that are each in document order into one, without duplicates. */
export function mergeOrdered<N>(a: readonly N[], b: readonly N[], compare: OrderComparator<N>): N[] {
  return finishSteps(mergeOrderedSteps(a, b, compare, new WorkCounter()));
}

/** {@link mergeOrdered} in steps, a unit of `work` per node taken. */
export function* mergeOrderedSteps<N>(
  a: readonly N[],
  b: readonly N[],
  compare: OrderComparator<N>,
  work: WorkCounter,
): Steps<N[]> {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  const out: N[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (work.due()) yield;
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out.push(x);
      i++;
      j++;
      continue;
    }
    if (compare(x, y) < 0) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/**
 * {@link sortUnique} in steps: the runs already in document order are found (a node-set gathered
 * step by step mostly is one), then merged pairwise, duplicates dropped as they meet; a unit of
 * `work` per node looked at.
 */
export function* sortUniqueSteps<N>(nodes: N[], compare: OrderComparator<N>, work: WorkCounter): Steps<N[]> {
  if (nodes.length < 2) return nodes;
  let runs: N[][] = [];
  let run: N[] = [nodes[0]!];
  for (let i = 1; i < nodes.length; i++) {
    if (work.due()) yield;
    const node = nodes[i]!;
    const last = run[run.length - 1]!;
    if (node === last) continue;
    if (compare(last, node) < 0) {
      run.push(node);
      continue;
    }
    runs.push(run);
    run = [node];
  }
  runs.push(run);
  while (runs.length > 1) {
    const merged: N[][] = [];
    for (let i = 0; i + 1 < runs.length; i += 2)
      merged.push(yield* mergeOrderedSteps(runs[i]!, runs[i + 1]!, compare, work));
    if (runs.length % 2 === 1) merged.push(runs[runs.length - 1]!);
    runs = merged;
  }
  return runs[0]!;
}
