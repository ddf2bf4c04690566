import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { SseAbortError, SseReadError } from '../src/errors.js';
import { readSse } from '../src/read-sse.js';
import type { SseEvent } from '../src/types.js';
import { utf8 } from './helpers.js';

async function collect(source: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of source) events.push(event);
  return events;
}

function webStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

describe('readSse', () => {
  test('reads events from a web ReadableStream such as a fetch body', async () => {
    const body = webStream([utf8('event: a\ndata: 1\n\n'), utf8('data: 2\n'), utf8('\n')]);
    expect(await collect(readSse(body))).toEqual([{ event: 'a', data: '1' }, { data: '2' }]);
  });

  test('reads events from a Node readable stream', async () => {
    const stream = Readable.from([Buffer.from('id: 7\ndata: x\n\n'), Buffer.from('data: y\n\n')]);
    expect(await collect(readSse(stream))).toEqual([{ id: '7', data: 'x' }, { data: 'y' }]);
  });

  test('reads events from an async iterable of strings', async () => {
    async function* chunks() {
      yield '\ufeffdata: a\r';
      yield '\ndata: b\r\n\r\n';
    }
    expect(await collect(readSse(chunks()))).toEqual([{ data: 'a\nb' }]);
  });

  test('reports comments through onComment', async () => {
    const comments: string[] = [];
    const events = await collect(
      readSse(webStream([utf8(':SSE keepalive\ndata: x\n\n')]), { onComment: (c) => comments.push(c) }),
    );
    expect({ events, comments }).toEqual({ events: [{ data: 'x' }], comments: ['SSE keepalive'] });
  });

  test('reads the next chunk only after the previous events were taken', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          controller.enqueue(utf8(`data: ${pulls}\n\n`));
        },
      },
      { highWaterMark: 0 },
    );
    const iterator = readSse(body)[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    await iterator.return?.(undefined);
    expect(pulls).toBe(2);
  });

  test('cancels the source when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(utf8('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const _ of readSse(body)) break;
    expect(cancelled).toBe(true);
  });

  test('throws an AbortError and cancels the source when the signal fires during a read', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(utf8('data: first\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const controller = new AbortController();
    const events: SseEvent[] = [];
    const reading = (async () => {
      for await (const event of readSse(body, { signal: controller.signal })) {
        events.push(event);
        setTimeout(() => controller.abort(new Error('stop')), 0);
      }
    })();
    const error = await reading.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SseAbortError);
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORTED', cause: new Error('stop') });
    expect(events).toEqual([{ data: 'first' }]);
    expect(cancelled).toBe(true);
  });

  test('throws at once for a signal that is already aborted', async () => {
    const signal = AbortSignal.abort();
    await expect(collect(readSse(webStream([utf8('data: x\n\n')]), { signal }))).rejects.toThrowError(
      SseAbortError,
    );
  });

  test('throws EVENT_TOO_LARGE for an event over maxEventSize', async () => {
    const body = webStream([utf8('data: '), utf8('x'.repeat(200)), utf8('\n\n')]);
    await expect(collect(readSse(body, { maxEventSize: 100 }))).rejects.toMatchObject({
      code: 'EVENT_TOO_LARGE',
    });
  });

  test('yields the events before a source error, then passes the error through unchanged', async () => {
    const failure = new TypeError('terminated');
    async function* chunks() {
      yield 'data: before\n\n';
      throw failure;
    }
    const events: SseEvent[] = [];
    const error = await (async () => {
      for await (const event of readSse(chunks())) events.push(event);
    })().catch((e: unknown) => e);
    expect({ events, error }).toEqual({ events: [{ data: 'before' }], error: failure });
  });

  test('rejects a source that is neither a stream nor an async iterable', async () => {
    await expect(collect(readSse({} as AsyncIterable<string>))).rejects.toThrowError(SseReadError);
  });
});
