/**
 * Nesting depth of a parsed JSON value: 0 for a scalar, 1 for an object or array of scalars, and
 * so on; arrays count as levels as objects do. Walked without recursion, so a hostile depth
 * cannot exhaust the stack, and no further than `max + 1` levels.
 */
export function jsonDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > deepest) deepest = d;
    if (deepest > max) return deepest;
    for (const c of Object.values(v)) stack.push([c, d + 1]);
  }
  return deepest;
}
