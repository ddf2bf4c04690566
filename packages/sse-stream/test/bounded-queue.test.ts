import { describe, expect, test } from 'vitest';
import { BoundedQueue, joinChunks } from '../src/bounded-queue.js';

describe('BoundedQueue', () => {
  test('measures chunks in UTF-8 bytes', () => {
    const queue = new BoundedQueue(100, 10, 'close');
    queue.push('é😀');
    expect({ bytes: queue.bytes, length: queue.length }).toEqual({ bytes: 6, length: 1 });
  });

  test('measures encoded chunks by their length', () => {
    const queue = new BoundedQueue(100, 10, 'close');
    queue.push(Buffer.from('é😀'));
    expect(queue.bytes).toBe(6);
  });

  test('returns its chunks in order and empties itself', () => {
    const queue = new BoundedQueue(100, 10, 'close');
    queue.push('a');
    queue.push('b');
    expect(queue.take()).toEqual(['a', 'b']);
    expect({ bytes: queue.bytes, length: queue.length }).toEqual({ bytes: 0, length: 0 });
  });

  test('reports overflow at the count bound under the close policy and keeps what it has', () => {
    const queue = new BoundedQueue(100, 2, 'close');
    expect([queue.push('a'), queue.push('b'), queue.push('c')]).toEqual(['queued', 'queued', 'overflow']);
    expect(queue.take().join('')).toBe('ab');
  });

  test('reports overflow at the byte bound under the close policy', () => {
    const queue = new BoundedQueue(3, 10, 'close');
    expect([queue.push('ab'), queue.push('cd')]).toEqual(['queued', 'overflow']);
  });

  test('drops the oldest chunks until the new one fits under drop-oldest', () => {
    const queue = new BoundedQueue(4, 10, 'drop-oldest');
    queue.push('a');
    queue.push('bb');
    expect(queue.push('ccc')).toBe('queued');
    expect({ text: queue.take().join(''), dropped: queue.dropped }).toEqual({ text: 'ccc', dropped: 2 });
  });

  test('drops a chunk larger than the byte bound itself under drop-oldest', () => {
    const queue = new BoundedQueue(4, 10, 'drop-oldest');
    queue.push('a');
    expect(queue.push('eeeee')).toBe('dropped');
    expect({ text: queue.take().join(''), dropped: queue.dropped }).toEqual({ text: 'a', dropped: 1 });
  });
});

describe('joinChunks', () => {
  test('joins text and bytes into one buffer of their UTF-8', () => {
    expect(Buffer.from(joinChunks(['a', Buffer.from('é')])).toString()).toBe('aé');
  });

  test('gives the same piece again for the very chunks it joined last, without copying them again', () => {
    const chunks = [Buffer.from('x'), Buffer.from('y')];
    const first = joinChunks(chunks);
    expect(joinChunks([...chunks])).toBe(first);
    expect(joinChunks([chunks[1]!, chunks[0]!])).not.toBe(first);
  });
});
