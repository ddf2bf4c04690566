/**
 * Makes the strings inside `input` (a JSON value) shorter while `fails` still holds, by removing
 * ever smaller slices (a light delta debugging); the shape of the value is kept. At most `budget`
 * calls of `fails`.
 */
export function shrink(input: unknown, fails: (candidate: unknown) => boolean, budget = 400): unknown {
  let current = input;
  let left = budget;
  for (const at of stringPaths(input)) {
    let text = get(current, at) as string;
    let chunk = Math.floor(text.length / 2);
    while (chunk >= 1 && left > 0) {
      let progressed = false;
      for (let i = 0; i < text.length && left > 0; ) {
        const shorter = text.slice(0, i) + text.slice(i + chunk);
        const candidate = set(current, at, shorter);
        left--;
        if (fails(candidate)) {
          text = shorter;
          current = candidate;
          progressed = true;
        } else i += chunk;
      }
      if (!progressed) chunk = Math.floor(chunk / 2);
    }
  }
  return current;
}

type Path = readonly (string | number)[];

function stringPaths(value: unknown, at: Path = []): Path[] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function get(value: unknown, at: Path): unknown {
  return at.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

function set(value: unknown, at: Path, leaf: unknown): unknown {
  if (at.length === 0) return leaf;
  const [head, ...rest] = at as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = set(copy[head], rest, leaf);
  return copy;
}
