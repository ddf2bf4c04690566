import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createSseWriter } from '../src/sse-writer.js';
import { parseChunks } from './helpers.js';
import { recordingSink, slowSink } from './sinks.js';

const KEEPALIVE = ':SSE keepalive\n';

describe('keepalive', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('writes the keepalive comment after the stream was idle for the interval', () => {
    const { sink, text } = recordingSink();
    createSseWriter(sink, { keepaliveSeconds: 5 });
    vi.advanceTimersByTime(4999);
    expect(text()).toBe('');
    vi.advanceTimersByTime(1);
    expect(text()).toBe(KEEPALIVE);
  });

  test('repeats the keepalive while the stream stays idle', () => {
    const { sink, text } = recordingSink();
    createSseWriter(sink, { keepaliveSeconds: 5 });
    vi.advanceTimersByTime(15_000);
    expect(text()).toBe(KEEPALIVE.repeat(3));
  });

  test('restarts the interval on every write', () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    vi.advanceTimersByTime(4000);
    writer.send({ data: 'x' });
    vi.advanceTimersByTime(4000);
    writer.comment('c');
    vi.advanceTimersByTime(4999);
    expect(text()).not.toContain(KEEPALIVE);
    vi.advanceTimersByTime(1);
    expect(text()).toBe(`data: x\n\n:c\n${KEEPALIVE}`);
  });

  test('writes no keepalive when keepaliveSeconds is 0', () => {
    const { sink, text } = recordingSink();
    createSseWriter(sink, { keepaliveSeconds: 0 });
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3_600_000);
    expect(text()).toBe('');
  });

  test('keeps the keepalive out of the events a reader sees', () => {
    const { sink, text } = recordingSink();
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    writer.send({ data: 'a' });
    vi.advanceTimersByTime(10_000);
    writer.send({ data: 'b' });
    const parsed = parseChunks([text()]);
    expect(parsed).toEqual({
      events: [{ data: 'a' }, { data: 'b' }],
      comments: ['SSE keepalive', 'SSE keepalive'],
      retries: [],
    });
  });

  test('stops its timer when the writer closes', async () => {
    const { sink } = recordingSink();
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    expect(vi.getTimerCount()).toBe(1);
    await writer.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('stops its timer when the client goes away', () => {
    const { sink } = recordingSink();
    createSseWriter(sink, { keepaliveSeconds: 5 });
    sink.destroy();
    sink.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });

  test('sends no keepalive while the response is backed up', () => {
    const { sink, text } = slowSink();
    const writer = createSseWriter(sink, { keepaliveSeconds: 5 });
    writer.send({ data: 'x'.repeat(90) }); // passes the 32-byte buffer: waits for drain
    vi.advanceTimersByTime(60_000);
    expect(text()).not.toContain(KEEPALIVE);
  });
});
