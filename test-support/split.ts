/**
 * `data` cut at `cuts`, as a stream reader could receive it: each cut (any non-negative integer) is
 * taken modulo `data.length + 1`; repeated cuts give empty pieces once. The pieces joined are `data`.
 */
export function splitAt(data: string, cuts: readonly number[]): string[];
export function splitAt<B extends Uint8Array>(data: B, cuts: readonly number[]): B[];
export function splitAt(data: string | Uint8Array, cuts: readonly number[]): (string | Uint8Array)[] {
  const piece = (from: number, to?: number) =>
    typeof data === 'string' ? data.slice(from, to) : data.subarray(from, to);
  const at = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort((a, b) => a - b);
  const pieces: (string | Uint8Array)[] = [];
  let from = 0;
  for (const i of at) {
    pieces.push(piece(from, i));
    from = i;
  }
  pieces.push(piece(from));
  return pieces;
}
