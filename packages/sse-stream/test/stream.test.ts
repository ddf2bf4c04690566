import { describe, expect, test } from 'vitest';
import { SseReadError } from '../src/errors.js';
import { SseEventStream } from '../src/stream.js';
import type { SseEvent } from '../src/types.js';
import { byteByByte, utf8 } from './helpers.js';

function source(chunks: Array<Uint8Array | string>): ReadableStream<Uint8Array | string> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function drain(stream: ReadableStream<SseEvent>): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    events.push(value);
  }
}

describe('SseEventStream', () => {
  test('turns a byte stream fed one byte at a time into events', async () => {
    const bytes = utf8('\ufeffevent: a\r\ndata: ü\r\n\r\ndata: 😀\r\r');
    const events = await drain(source(byteByByte(bytes)).pipeThrough(new SseEventStream()));
    expect(events).toEqual([{ event: 'a', data: 'ü' }, { data: '😀' }]);
  });

  test('reports comments through onComment', async () => {
    const comments: string[] = [];
    await drain(
      source([':SSE keepalive\n']).pipeThrough(new SseEventStream({ onComment: (c) => comments.push(c) })),
    );
    expect(comments).toEqual(['SSE keepalive']);
  });

  test('errors the stream with SseReadError when an event is too large', async () => {
    const stream = source(['data: ', 'x'.repeat(64), '\n\n']).pipeThrough(
      new SseEventStream({ maxEventSize: 16 }),
    );
    await expect(drain(stream)).rejects.toThrowError(SseReadError);
  });
});
