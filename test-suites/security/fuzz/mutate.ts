import fc from 'fast-check';
import { splitAt } from '../../../test-support/split.js';

/** Inserts, deletes, replaces or repeats a slice of `s` at a generated position. */
export function mutate(base: fc.Arbitrary<string>, piece: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(
      base,
      fc.nat(),
      fc.nat({ max: 16 }),
      piece,
      fc.constantFrom('insert', 'delete', 'replace', 'repeat'),
    )
    .map(([s, at, len, p, op]) => {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (op === 'insert') return s.slice(0, i) + p + s.slice(i);
      if (op === 'delete') return s.slice(0, i) + s.slice(i + len);
      if (op === 'repeat') return s.slice(0, i) + s.slice(i, i + len).repeat(1 + (at % 50)) + s.slice(i);
      return s.slice(0, i) + p + s.slice(i + len);
    });
}

/** `seeds` mutated up to three times with `tokens` and random text. */
export function mutated(seeds: readonly string[], tokens: readonly string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 6, unit: 'binary' }));
  const once = mutate(fc.constantFrom(...seeds), piece);
  return fc.oneof(once, mutate(once, piece), mutate(mutate(once, piece), piece));
}

/** Text made of the grammar's `tokens`, random characters and whitespace. */
export function tokenSoup(tokens: readonly string[], maxLength = 40): fc.Arbitrary<string> {
  return fc
    .array(
      fc.oneof(
        { arbitrary: fc.constantFrom(...tokens), weight: 6 },
        { arbitrary: fc.constantFrom(' ', '\n', '\t', '\r\n'), weight: 2 },
        { arbitrary: fc.string({ maxLength: 4, unit: 'binary' }), weight: 1 },
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''));
}

/** An `open` ... `close` pair nested `depth` times around `inner`: the shape that exhausts stacks. */
export function nested(open: string, close: string, inner = ''): fc.Arbitrary<string> {
  return fc
    .integer({ min: 100, max: 20_000 })
    .map((depth) => open.repeat(depth) + inner + close.repeat(depth));
}

/** Random splits of `text` into chunks (at least one), as a stream reader would receive them. */
export function splits(text: fc.Arbitrary<string>): fc.Arbitrary<string[]> {
  return fc.tuple(text, fc.array(fc.nat(), { maxLength: 6 })).map(([t, cuts]) => splitAt(t, cuts));
}
