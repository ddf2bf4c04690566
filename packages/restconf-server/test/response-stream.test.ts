import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { Responder } from '../src/response.js';

/** A response whose socket takes every write at once: `drain` comes in a process.nextTick callback. */
function eagerSocketResponse() {
  const res = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const written: string[] = [];
  Object.assign(res, {
    destroyed: false,
    headersSent: false,
    statusCode: 200,
    setHeader: () => res,
    write(chunk: string) {
      written.push(chunk);
      process.nextTick(() => res.emit('drain'));
      return false;
    },
    end(chunk?: string) {
      if (chunk !== undefined) written.push(chunk);
      res.emit('finish');
    },
  });
  return { res: res as unknown as ServerResponse, written };
}

const req = { method: 'GET', headers: {} } as IncomingMessage;

describe('Responder.stream', () => {
  test('a turn of the event loop passes between two chunks even when the socket drains at once', async () => {
    const { res, written } = eagerSocketResponse();
    const seen: number[] = [];
    const chunks = ['a', 'b', 'c', 'd'];
    setImmediate(() => seen.push(written.length));
    await new Responder(req, res).stream(200, 'text/plain', chunks);
    expect(written).toEqual(chunks);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeLessThan(chunks.length);
  });
});
