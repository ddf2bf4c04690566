import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { unauthenticatedConnections } from '../src/security/unauthenticated-connections.js';

/** A connection that records whether it was destroyed. */
class FakeConnection extends EventEmitter {
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

/** A request that came over `socket` (HTTP/1.1). */
const requestOn = (socket: FakeConnection) => ({ socket }) as unknown as IncomingMessage;

describe('unauthenticatedConnections', () => {
  test('closes the oldest unauthenticated connection past the bound', () => {
    let closed = 0;
    const limit = unauthenticatedConnections(2, () => closed++);
    const c = [new FakeConnection(), new FakeConnection(), new FakeConnection()];
    for (const x of c) limit.opened(x);
    expect(c.map((x) => x.destroyed)).toEqual([true, false, false]);
    expect(closed).toBe(1);
  });

  test('no longer counts a connection that authenticated a request', () => {
    const limit = unauthenticatedConnections(1);
    const first = new FakeConnection();
    limit.opened(first);
    limit.authenticated(requestOn(first));
    const second = new FakeConnection();
    limit.opened(second);
    expect([first.destroyed, second.destroyed]).toEqual([false, false]);
  });

  test('counts an HTTP/2 request by its session', () => {
    const limit = unauthenticatedConnections(1);
    const session = new FakeConnection();
    limit.opened(session);
    limit.authenticated({ stream: { session }, socket: {} } as unknown as IncomingMessage);
    limit.opened(new FakeConnection());
    expect(session.destroyed).toBe(false);
  });

  test('forgets a connection that closed', () => {
    const limit = unauthenticatedConnections(1);
    const first = new FakeConnection();
    limit.opened(first);
    first.emit('close');
    const second = new FakeConnection();
    limit.opened(second);
    expect(second.destroyed).toBe(false);
  });
});
