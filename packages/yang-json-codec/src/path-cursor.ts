import { findChild } from './child-index';
import type { ChildHolder, DataNode } from './instance';
import { type PathStep, pathOf, stepOf } from './path-step';

/**
 * The last instance a run of changes touched, with its path, so that the next path is found (or made)
 * from there: the changes of one edit come in document order, each next to or below the one before,
 * and their paths share the step objects of the part they have in common. Following a path then costs
 * the steps that differ, not the depth, and making one allocates one step, not the depth's.
 *
 * The cursor relies on the remembered instance staying where it was: whoever removes instances or
 * replaces the tree calls {@link PathCursor.forget}.
 */
export class PathCursor {
  #node: DataNode | undefined;
  #path: readonly PathStep[] = [];
  #depth = 0;

  /** Remembers `node`, whose path is the first `depth` steps of `path` (default: all of them). */
  at(node: DataNode, path: readonly PathStep[], depth = path.length): void {
    this.#node = node;
    this.#path = path;
    this.#depth = depth;
  }

  /** Forgets the remembered instance (it may be gone). */
  forget(): void {
    this.#node = undefined;
    this.#path = [];
    this.#depth = 0;
  }

  /**
   * The holder the first `end` steps of `steps` name below `root` (`root` itself for none), or
   * undefined when an instance on the way is missing. Steps shared with the remembered path (the
   * same objects) are not looked up again.
   */
  find(root: ChildHolder, steps: readonly PathStep[], end = steps.length): ChildHolder | undefined {
    const shared = this.#node === undefined ? 0 : this.#sharedSteps(steps, end);
    let holder: ChildHolder | undefined = shared === 0 ? root : this.#ancestorAt(shared);
    for (let i = shared; i < end && holder !== undefined; i++) holder = findChild(holder, steps[i]!);
    return holder;
  }

  /**
   * The path of `node`: when its parent is the remembered instance or one of that one's ancestors,
   * their steps followed by the node's own step; otherwise walked up to the root.
   */
  pathOf(node: DataNode): PathStep[] {
    const parent = node.parent;
    if (parent === undefined) return [stepOf(node)];
    let a = this.#node;
    for (let depth = this.#depth; depth > 0 && a !== undefined; depth--, a = a.parent) {
      if (a === parent) {
        const path = this.#path.slice(0, depth);
        path.push(stepOf(node));
        return path;
      }
    }
    return pathOf(node);
  }

  /** The remembered instance when `step` is the last step of its path (the same object), else undefined. */
  nodeOf(step: PathStep): DataNode | undefined {
    return this.#depth > 0 && this.#path[this.#depth - 1] === step ? this.#node : undefined;
  }

  /** The step the remembered instance's path ends with when `node` is that instance. */
  stepOf(node: DataNode): PathStep {
    return node === this.#node && this.#depth > 0 ? this.#path[this.#depth - 1]! : stepOf(node);
  }

  /** How many leading steps of `steps` (at most `end`) are the remembered path's own. */
  #sharedSteps(steps: readonly PathStep[], end: number): number {
    const max = Math.min(end, this.#depth);
    let i = 0;
    while (i < max && steps[i] === this.#path[i]) i++;
    return i;
  }

  /** The ancestor (or self) of the remembered instance at `depth` (1 = a top-level instance). */
  #ancestorAt(depth: number): DataNode | undefined {
    let a = this.#node;
    for (let d = this.#depth; d > depth && a !== undefined; d--) a = a.parent;
    return a;
  }
}
