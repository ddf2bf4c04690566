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
  /** The time of the last change (whole seconds, as HTTP dates carry). */
  lastModified(): Date;
  /**
   * True once the second of the last change is over. HTTP dates have whole seconds, so before
   * that a client's If-Modified-Since cannot tell the state before the change from the one after.
   */
  settled(): boolean;
  /** Records a change made now. */
  changed(): void;
}

/** An in-memory {@link ChangeClock}; the tag holds the start time so that a restart never repeats one. */
export function memoryChangeClock(now: () => number = Date.now): ChangeClock {
  const epoch = Math.floor(now() / 1000).toString(36);
  let counter = 0;
  let exact = now();
  let modified = new Date(Math.floor(exact / 1000) * 1000);
  return {
    etag: () => `"${epoch}-${counter.toString(36)}"`,
    lastModified: () => modified,
    settled: () => now() - exact >= 1000,
    changed: () => {
      counter++;
      exact = now();
      modified = new Date(Math.floor(exact / 1000) * 1000);
    },
  };
}
