import { describe, expect, test } from 'vitest';
import { parseDateAndTime } from '../src/index.js';

describe('parseDateAndTime', () => {
  test('reads a UTC time', () => {
    expect(parseDateAndTime('2016-07-01T00:00:00Z')?.epochMs).toBe(Date.UTC(2016, 6, 1));
  });

  test('applies a negative offset', () => {
    expect(parseDateAndTime('2016-07-01T00:00:00-05:30')?.epochMs).toBe(Date.UTC(2016, 6, 1, 5, 30));
  });

  test('keeps nanoseconds for ordering', () => {
    const a = parseDateAndTime('2016-07-01T00:00:00.0000001Z')!;
    const b = parseDateAndTime('2016-07-01T00:00:00.0000002Z')!;
    expect(b.epochNs - a.epochNs).toBe(100n);
    expect(a.epochMs).toBe(b.epochMs);
  });

  test('accepts February 29 of a leap year', () => {
    expect(parseDateAndTime('2024-02-29T12:00:00Z')).toBeDefined();
  });

  test('accepts a leap second', () => {
    expect(parseDateAndTime('2016-12-31T23:59:60Z')).toBeDefined();
  });

  test('reads years before 100 literally', () => {
    expect(parseDateAndTime('0050-01-01T00:00:00Z')?.epochMs).toBe(Date.parse('0050-01-01T00:00:00.000Z'));
  });

  test.each([
    '2023-02-29T00:00:00Z',
    '2016-13-01T00:00:00Z',
    '2016-04-31T00:00:00Z',
    '2016-07-01T24:00:00Z',
    '2016-07-01T00:60:00Z',
    '2016-07-01T00:00:61Z',
    '2016-07-01T00:00:00+24:00',
    '2016-07-01 00:00:00Z',
    '2016-07-01t00:00:00z',
    '2016-07-01T00:00:00',
    '2016-07-01T00:00:00.Z',
  ])('rejects %s', (text) => {
    expect(parseDateAndTime(text)).toBeUndefined();
  });
});
