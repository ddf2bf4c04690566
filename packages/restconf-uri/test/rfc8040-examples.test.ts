import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { type ParsedRequest, parseRequest } from '../src/index.js';

interface Case {
  readonly section: string;
  readonly method: string;
  readonly target: string;
}

const fixtures = path.resolve(__dirname, 'fixtures');
const cases: Case[] = JSON.parse(readFileSync(path.join(fixtures, 'rfc8040-appendix-b3.json'), 'utf8'));
const expected: unknown[] = JSON.parse(
  readFileSync(path.join(fixtures, 'rfc8040-appendix-b3.expected.json'), 'utf8'),
);

/** JSON form of a parsed request (Map and bigint become plain values). */
function plain(parsed: ParsedRequest): unknown {
  return JSON.parse(
    JSON.stringify(parsed, (_, v) => {
      if (v instanceof Map) return Object.fromEntries(v);
      if (typeof v === 'bigint') return v.toString();
      return v;
    }),
  );
}

test('the golden file has one expected result per example', () => {
  expect(expected).toHaveLength(cases.length);
});

test.each(cases.map((c, i) => [c.section, c.method, c.target, i] as const))(
  'RFC 8040 %s: %s %s parses as the golden file says',
  (_, method, target, index) => {
    expect(plain(parseRequest(target, { method }))).toEqual(expected[index]);
  },
);
