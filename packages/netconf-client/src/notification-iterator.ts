import type { EventEmitter } from 'node:events';
import { NetconfError } from './errors.js';
import type { NetconfNotification } from './messages.js';
import type { SessionEvents } from './session.js';

/**
 * An async iterator over the `notification` events of a session, ending at its `close` event.
 * It buffers up to `limit` unread notifications; one more makes it fail with `SESSION_CLOSED`
 * rather than grow without bound behind a slow reader.
 */
export function iterateNotifications(
  source: EventEmitter<SessionEvents>,
  ended: boolean,
  limit: number,
): AsyncIterableIterator<NetconfNotification> {
  const queue: NetconfNotification[] = [];
  let waiter:
    | { resolve: (r: IteratorResult<NetconfNotification>) => void; reject: (e: unknown) => void }
    | undefined;
  let done = ended;
  let failure: NetconfError | undefined;
  const stop = () => {
    done = true;
    source.off('notification', onNotification);
    source.off('close', stop);
    waiter?.resolve({ value: undefined, done: true });
    waiter = undefined;
  };
  const onNotification = (n: NetconfNotification) => {
    if (waiter) {
      waiter.resolve({ value: n, done: false });
      waiter = undefined;
    } else if (queue.length >= limit) {
      failure = new NetconfError('SESSION_CLOSED', `more than ${limit} unread notifications`);
      stop();
    } else queue.push(n);
  };
  if (!done) {
    source.on('notification', onNotification);
    source.on('close', stop);
  }
  return {
    next: () => {
      const value = queue.shift();
      if (value !== undefined) return Promise.resolve({ value, done: false });
      if (failure) return Promise.reject(failure);
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    return: () => {
      queue.length = 0;
      stop();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
