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

  test('gives the event loop a turn at an empty chunk once the slice is over', async () => {
    const order: string[] = [];
    function* chunks(): Generator<string> {
      setImmediate(() => order.push('other work'));
      yield '';
      order.push('after the step');
      yield 'text';
    }
    const next = await nextText(chunks(), new Slices(0));
    expect(next.value).toBe('text');
    expect(order).toEqual(['other work', 'after the step']);
  });

  test('takes no turn at an empty chunk within the slice', async () => {
    const order: string[] = [];
    function* chunks(): Generator<string> {
      setImmediate(() => order.push('other work'));
      yield '';
      order.push('after the step');
      yield 'text';
    }
    await nextText(chunks(), new Slices(60_000));
    expect(order).toEqual(['after the step']);
  });
});
