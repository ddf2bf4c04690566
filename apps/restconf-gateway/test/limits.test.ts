import { getHeapStatistics } from 'node:v8';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.js';
import { type CapturedLog, captureLog } from './capture-log.js';

describe('limits at start', () => {
  let log: CapturedLog;
  let gw: Gateway;
  beforeAll(async () => {
    log = captureLog();
    gw = await startGateway({ port: 0, httpUser: 'admin', httpPassword: 's3cret' }, { logger: log.logger });
  });
  afterAll(() => gw.close());

  test('the start-up log names the limits in force, defaults included', () => {
    const heapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20);
    expect(limitsLine(log)).toBe(
      `limits: 32 requests in progress per client; list keys of 1024 bytes, values of 1048576 bytes, 200000 data nodes per body; 2 bodies over 64 KiB decoded at once and 16 waiting, refused above 70% of the ${heapMb} MB heap limit; their memory and a busy period's given back by a full collection once 2 s quiet; headers within 60 s, a whole request within 300 s, idle keep-alive 5 s; 1000 connections without an authenticated request; logins wait after 10 failures per address or 30 per user name`,
    );
  });
});

describe('limits at start with --max-heap-percent and --idle-collection=false', () => {
  test('the start-up log names the heap ceiling given and no collection', async () => {
    const log = captureLog();
    const gw = await startGateway(
      { port: 0, maxHeapPercent: 50, idleCollection: false },
      { logger: log.logger },
    );
    await gw.close();
    expect(limitsLine(log)).toContain('refused above 50% of the');
    expect(limitsLine(log)).toContain('; no collection after them (--idle-collection=false);');
  });
});

/** The `limits:` line of the start-up log. */
function limitsLine(log: CapturedLog): string | undefined {
  return log.lines
    .map((l) => l.msg)
    .find((m): m is string => typeof m === 'string' && m.startsWith('limits: '));
}
