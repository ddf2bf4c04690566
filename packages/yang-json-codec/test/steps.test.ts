import { describe, expect, test } from 'vitest';
import { nextText, Slices } from '../src/index';

describe('nextText', () => {
  test('gives the chunks that hold text, then the end, skipping the empty ones', async () => {
    const chunks = ['', 'a', '', '', 'b', ''][Symbol.iterator]();
    const slices = new Slices();
    const got: string[] = [];
    for (let next = await nextText(chunks, slices); next.done !== true; next = await nextText(chunks, slices))
      got.push(next.value);
    expect(got).toEqual(['a', 'b']);
  });

  /** Chunks that schedule other work, then step (an empty chunk), then give text; `order` says what ran when. */
  function* steppedChunks(order: string[]): Generator<string> {
    setImmediate(() => order.push('other work'));
    yield '';
    order.push('after the step');
    yield 'text';
  }

  test('gives the event loop a turn at an empty chunk once the slice is over', async () => {
    const order: string[] = [];
    const next = await nextText(steppedChunks(order), new Slices(0));
    expect(next.value).toBe('text');
    expect(order).toEqual(['other work', 'after the step']);
  });

  test('takes no turn at an empty chunk within the slice', async () => {
    const order: string[] = [];
    await nextText(steppedChunks(order), new Slices(60_000));
    expect(order).toEqual(['after the step']);
  });
});
