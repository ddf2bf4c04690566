/**
 * How many turns the event loop takes until `done` settles: more than one when the work behind it
 * gave the event loop back (ran in slices) rather than holding it to the end.
 */
export async function turnsUntil(done: Promise<unknown>): Promise<number> {
  let turns = 0;
  let settled = false;
  const turn = (): void => {
    if (settled) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await done;
  } finally {
    settled = true;
  }
  return turns;
}
