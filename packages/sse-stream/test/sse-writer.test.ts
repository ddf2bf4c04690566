import { Writable } from 'node:stream';
import { describe, expect, test, vi } from 'vitest';
import { SseFormatError, SseOptionError } from '../src/errors.js';
import { encodeEvent, formatComment, formatEvent, OVERFLOW_COMMENT } from '../src/format-event.js';
import { createSseWriter } from '../src/sse-writer.js';
import type { SseCloseInfo } from '../src/writer-options.js';
import { parseChunks } from './helpers.js';
import { recordingSink, slowSink } from './sinks.js';

describe('writing', () => {
  test('writes each event as formatEvent formats it', () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink);
    writer.send({ data: 'a\nb', event: 'notification', id: '1' });
    writer.send({ data: 'c' });
    expect(text()).toBe(
      formatEvent({ data: 'a\nb', event: 'notification', id: '1' }) + formatEvent({ data: 'c' }),
    );
  });

  test('writes comments line by line', () => {
    const { sink, text } = recordingSink();
    createSseWriter(sink).comment('hello\nworld');
    expect(text()).toBe(':hello\n:world\n');
  });

  test('writes the retry time first when retryMs is set', () => {
    const { sink, text } = recordingSink();
    createSseWriter(sink, { retryMs: 2500 }).send({ data: 'x' });
    expect(text()).toBe('retry: 2500\n\ndata: x\n\n');
  });

  test('throws SseFormatError for an invalid event and writes nothing', () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink);
    expect(() => writer.send({ data: 'x', id: 'a\nb' })).toThrowError(SseFormatError);
    expect(text()).toBe('');
  });

  test('counts sent events and comments', () => {
    const { sink } = recordingSink();
    const writer = createSseWriter(sink);
    writer.send({ data: 'x' });
    writer.comment('c');
    expect(writer.stats).toEqual({ queuedBytes: 0, queuedEvents: 0, droppedEvents: 0, sentEvents: 2 });
  });
});

describe('shared and coalesced writes', () => {
  /** A Writable that records each batch it is handed (one per write, or per writev when corked). */
  function batchingSink(): { sink: Writable; batches: string[] } {
    const batches: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        batches.push(chunk.toString());
        callback();
      },
    });
    return { sink, batches };
  }

  test('sendEncoded writes the bytes of encodeEvent as send writes the event', () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink);
    writer.sendEncoded(encodeEvent({ data: 'é\nx', id: '7' }));
    expect(text()).toBe(formatEvent({ data: 'é\nx', id: '7' }));
  });

  test('one encoded event can be sent to many writers', () => {
    const bytes = encodeEvent({ data: 'shared' });
    const sinks = [recordingSink(), recordingSink()];
    for (const { sink } of sinks) createSseWriter(sink).sendEncoded(bytes);
    expect(sinks.map(({ text }) => text())).toEqual([
      formatEvent({ data: 'shared' }),
      formatEvent({ data: 'shared' }),
    ]);
  });

  test('coalesceWrites hands the events of one turn to the response in one write', async () => {
    const { sink, batches } = batchingSink();
    const writer = createSseWriter(sink, { coalesceWrites: true });
    for (const data of ['a', 'b', 'c']) writer.send({ data });
    expect(batches).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([
      formatEvent({ data: 'a' }) + formatEvent({ data: 'b' }) + formatEvent({ data: 'c' }),
    ]);
  });

  test('coalesceWrites joins encoded events and text into one write', async () => {
    const { sink, batches } = batchingSink();
    const writer = createSseWriter(sink, { coalesceWrites: true });
    writer.sendEncoded(encodeEvent({ data: 'é' }));
    writer.comment('c');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([formatEvent({ data: 'é' }) + formatComment('c')]);
  });

  test('coalesceWrites writes a burst past the queue bounds within one turn instead of dropping it', async () => {
    const { sink, batches } = batchingSink();
    const writer = createSseWriter(sink, { coalesceWrites: true, maxQueuedEvents: 2 });
    expect([1, 2, 3].map((i) => writer.send({ data: String(i) }))).toEqual([true, true, true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([
      formatEvent({ data: '1' }) + formatEvent({ data: '2' }),
      formatEvent({ data: '3' }),
    ]);
    expect(writer.isClosed).toBe(false);
  });

  test('coalesceWrites still closes a client that stays behind past the bounds', async () => {
    const { sink, text, release } = slowSink();
    const writer = createSseWriter(sink, { coalesceWrites: true, maxQueuedEvents: 3 });
    for (let i = 0; i < 100; i++) {
      writer.send({ data: String(i) });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await expect(writer.closed).resolves.toEqual({ reason: 'overflow' });
    await release();
    expect(text().endsWith(formatComment(OVERFLOW_COMMENT))).toBe(true);
  });

  test('with coalesceWrites drained() resolves once the events of the turn are written', async () => {
    const { sink, batches } = batchingSink();
    const writer = createSseWriter(sink, { coalesceWrites: true });
    writer.send({ data: 'a' });
    await writer.drained();
    expect(batches).toEqual([formatEvent({ data: 'a' })]);
  });

  test('without coalesceWrites each event reaches the response at send()', () => {
    const { sink, batches } = batchingSink();
    const writer = createSseWriter(sink);
    for (const data of ['a', 'b']) writer.send({ data });
    expect(batches).toEqual([formatEvent({ data: 'a' }), formatEvent({ data: 'b' })]);
  });
});

describe('options', () => {
  test.each([1, 4, 3601, 5.5, -5, Number.NaN])('rejects keepaliveSeconds %s', (keepaliveSeconds) => {
    expect(() => createSseWriter(recordingSink().sink, { keepaliveSeconds })).toThrowError(SseOptionError);
  });

  test.each([0, 5, 30, 3600])('accepts keepaliveSeconds %s', (keepaliveSeconds) => {
    const writer = createSseWriter(recordingSink().sink, { keepaliveSeconds });
    void writer.close();
  });

  test.each([
    { maxQueuedBytes: 0 },
    { maxQueuedEvents: 1.5 },
    { overflow: 'drop-newest' as 'close' },
    { retryMs: -1 },
  ])('rejects the out-of-range option %o', (options) => {
    expect(() => createSseWriter(recordingSink().sink, options)).toThrowError(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
  });
});

describe('a slow consumer', () => {
  const event = { data: 'x'.repeat(90) }; // 98 bytes on the wire

  test('queues while the response waits for drain and flushes the queue in order on drain', async () => {
    const { sink, text, release } = slowSink();
    const writer = createSseWriter(sink);
    // 98 bytes pass the 32-byte buffer: write() returns false and the next events wait.
    writer.send(event);
    for (let i = 0; i < 3; i++) writer.send({ data: String(i) });
    expect(writer.stats).toMatchObject({ queuedEvents: 3, queuedBytes: 27 });
    expect(text()).toBe(formatEvent(event));
    await release();
    expect(writer.stats.queuedEvents).toBe(0);
    expect(parseChunks([text()]).events.map((e) => e.data)).toEqual([event.data, '0', '1', '2']);
  });

  test('never queues more than maxQueuedEvents and drops the oldest with drop-oldest', async () => {
    const { sink, text, release } = slowSink();
    const writer = createSseWriter(sink, { maxQueuedEvents: 10, overflow: 'drop-oldest' });
    for (let i = 0; i < 100; i++) {
      writer.send({ data: String(i) });
      expect(writer.stats.queuedEvents).toBeLessThanOrEqual(10);
    }
    const { droppedEvents } = writer.stats;
    await release();
    const received = parseChunks([text()]).events.map((e) => Number(e.data));
    expect(received.length + droppedEvents).toBe(100);
    expect(received.slice(-10)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    expect(received).toEqual([...received].sort((a, b) => a - b));
  });

  test('never queues more than maxQueuedBytes', () => {
    const { sink } = slowSink();
    const writer = createSseWriter(sink, { maxQueuedBytes: 500, overflow: 'drop-oldest' });
    for (let i = 0; i < 100; i++) {
      writer.send(event);
      expect(writer.stats.queuedBytes).toBeLessThanOrEqual(500);
    }
    expect(writer.stats.queuedEvents).toBe(5);
    // The response itself holds at most its buffer plus the one write that passed it.
    expect(sink.writableLength).toBeLessThanOrEqual(32 + 98);
  });

  test('drops an event larger than maxQueuedBytes on its own with drop-oldest', () => {
    const { sink } = slowSink();
    const writer = createSseWriter(sink, { maxQueuedBytes: 50, overflow: 'drop-oldest' });
    writer.send(event);
    writer.send({ data: 'small' });
    expect(writer.send(event)).toBe(false);
    expect(writer.stats).toMatchObject({ queuedEvents: 1, droppedEvents: 1 });
  });

  test('closes the stream and releases the upstream with the close policy', async () => {
    const { sink, release } = slowSink();
    const onClose = vi.fn<(info: SseCloseInfo) => void>();
    const writer = createSseWriter(sink, { maxQueuedEvents: 3, overflow: 'close', onClose });
    const accepted = Array.from({ length: 10 }, (_, i) => writer.send({ data: String(i) }));
    expect(accepted.filter((ok) => !ok).length).toBeGreaterThan(0);
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ reason: 'overflow' });
    expect(writer.isClosed).toBe(true);
    expect(sink.writableEnded).toBe(true);
    expect(writer.send({ data: 'late' })).toBe(false);
    await release();
    await expect(writer.closed).resolves.toEqual({ reason: 'overflow' });
  });

  test('ends an overflowing stream with the overflow comment after what the response held', async () => {
    const { sink, text, release } = slowSink();
    const writer = createSseWriter(sink, { maxQueuedEvents: 2, overflow: 'close' });
    for (let i = 0; i < 10; i++) writer.send({ data: String(i) });
    await release();
    const events = text().slice(0, -formatComment(OVERFLOW_COMMENT).length);
    expect(text()).toBe(events + formatComment(OVERFLOW_COMMENT));
    expect(events).toMatch(/^(data: \d\n\n)+$/);
  });

  test('drained() resolves once the queue has been handed over', async () => {
    const { sink, release } = slowSink();
    const writer = createSseWriter(sink);
    writer.send(event);
    writer.send(event);
    let resolved = false;
    const drained = writer.drained().then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    await release();
    await drained;
    expect(writer.stats.queuedEvents).toBe(0);
  });

  test('close() hands the queue over before ending', async () => {
    const { sink, text, release } = slowSink();
    const writer = createSseWriter(sink);
    writer.send(event);
    writer.send({ data: 'queued' });
    const closing = writer.close();
    await release();
    await expect(closing).resolves.toEqual({ reason: 'end' });
    expect(parseChunks([text()]).events.at(-1)).toEqual({ data: 'queued' });
  });
});

describe('closing', () => {
  test('reports a closed response as a disconnect, once', () => {
    const { sink } = recordingSink();
    const onClose = vi.fn<(info: SseCloseInfo) => void>();
    const writer = createSseWriter(sink, { onClose });
    sink.destroy();
    sink.emit('close');
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ reason: 'disconnect' });
    expect(writer.isClosed).toBe(true);
  });

  test('notices a response that the application ended directly', () => {
    const { sink } = recordingSink();
    const onClose = vi.fn();
    const writer = createSseWriter(sink, { onClose });
    sink.end();
    expect(writer.send({ data: 'x' })).toBe(false);
    expect(onClose).toHaveBeenCalledExactlyOnceWith({ reason: 'end' });
  });

  test('closes when a response ended directly finishes, without waiting for a send', async () => {
    const { sink } = recordingSink();
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    sink.end();
    await expect(writer.closed).resolves.toEqual({ reason: 'end' });
  });

  test('removes its listeners from the response when it closes, except a guard for late errors', async () => {
    const { sink } = recordingSink();
    const before = ['drain', 'finish', 'close', 'error'].map((name) => sink.listenerCount(name));
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    await writer.close();
    const after = ['drain', 'finish', 'close', 'error'].map((name) => sink.listenerCount(name));
    expect(after).toEqual([before[0], before[1], before[2], before[3]! + 1]);
  });

  test('makes sends and comments after close no-ops returning false', async () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink);
    await writer.close();
    expect(writer.send({ data: 'x' })).toBe(false);
    expect(writer.comment('x')).toBe(false);
    expect(text()).toBe('');
  });

  test('reports an error of the response with reason error', async () => {
    const { sink } = recordingSink();
    const writer = createSseWriter(sink);
    const failure = new Error('EPIPE');
    sink.destroy(failure);
    await expect(writer.closed).resolves.toEqual({ reason: 'error', error: failure });
  });

  test('closes at once on a response that is already destroyed', () => {
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    sink.destroy();
    const onClose = vi.fn();
    const writer = createSseWriter(sink, { onClose });
    expect(writer.isClosed).toBe(true);
    expect(onClose).toHaveBeenCalledWith({ reason: 'disconnect' });
  });

  test('returns the same result from repeated close() calls', async () => {
    const { sink } = recordingSink();
    const onClose = vi.fn();
    const writer = createSseWriter(sink, { onClose });
    const first = await writer.close();
    const second = await writer.close();
    expect(second).toBe(first);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  test('ignores an error of the response after it was closed', async () => {
    const { sink } = recordingSink();
    const writer = createSseWriter(sink);
    await writer.close();
    expect(() => sink.emit('error', new Error('late'))).not.toThrow();
    await expect(writer.closed).resolves.toEqual({ reason: 'end' });
  });
});
