const waiting = new Set<() => void>();
let scheduled = false;

/**
 * Runs `flush` once at the end of this turn of the event loop (one `setImmediate` for every
 * callback registered in the turn; registering the same callback again in the turn does nothing).
 */
export function atEndOfTurn(flush: () => void): void {
  waiting.add(flush);
  if (scheduled) return;
  scheduled = true;
  setImmediate(runAll);
}

function runAll(): void {
  scheduled = false;
  const callbacks = [...waiting];
  waiting.clear();
  for (const flush of callbacks) flush();
}
