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

/**
 * Nesting depth of JSON text, counted as {@link jsonDepth} counts the value it parses to (for text
 * that is JSON), by one linear scan that stops past `max`. Run before `JSON.parse`: parsing
 * millions of nested brackets blocks the event loop for seconds before any limit could apply.
 */
export function jsonTextDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return deepest;
}
