/**
 * Entity tag and last-modified time of one datastore (RFC 8040 sections 3.4.1.2 and 3.4.1.3).
 * A counter moves on every change this handler makes and on every `netconf-config-change`
 * notification the backend reports for a session that is not one of the handler's own, so
 * edits by other NETCONF clients change the tag too.
 *
 * The state sits behind this small interface so that several gateway instances can share it
 * through an external store; the default lives in memory.
 */
export interface ChangeClock {
  /** The current strong entity tag, quoted (`"1a2b-7"`). */
  etag(): string;
  /**
   * The Last-Modified date to send now (whole seconds, as HTTP dates carry; never later than
   * now). Once it can be, it is later than every date sent for an earlier state.
   */
  lastModified(): Date;
  /**
   * True when the date {@link lastModified} gives now was sent for no earlier state, so that a
   * client holding it holds the current state (RFC 7232 section 3.3 then answers 304). False
   * for the rest of a second in which a date was sent and then the state changed.
   */
  distinct(): boolean;
  /**
   * True once the second of the last change is over. Before that an If-Unmodified-Since of that
   * second may come from a client that saw the state before the change (from a Date field).
   */
  settled(): boolean;
  /** Records a change made now. */
  changed(): void;
}

const second = (ms: number): number => Math.floor(ms / 1000) * 1000;

/** An in-memory {@link ChangeClock}; the tag holds the start time so that a restart never repeats one. */
export function memoryChangeClock(now: () => number = Date.now): ChangeClock {
  const epoch = Math.floor(now() / 1000).toString(36);
  let counter = 0;
  let exact = now();
  // The date of the current state: one second past the latest date sent for an earlier state
  // when that is the second of the change, so it may lie up to a second ahead; until that
  // second comes, the current second (which does not tell the two states apart) is sent.
  let modified = second(exact);
  let latestSent = Number.NEGATIVE_INFINITY;
  return {
    etag: () => `"${epoch}-${counter.toString(36)}"`,
    lastModified: () => {
      const date = Math.min(modified, second(now()));
      latestSent = Math.max(latestSent, date);
      return new Date(date);
    },
    distinct: () => second(now()) >= modified,
    settled: () => now() - exact >= 1000,
    changed: () => {
      counter++;
      exact = now();
      modified = Math.max(second(exact), latestSent + 1000);
    },
  };
}
