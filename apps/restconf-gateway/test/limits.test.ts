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
    const line = log.lines.map((l) => l.msg).find((m) => typeof m === 'string' && m.startsWith('limits: '));
    expect(line).toBe(
      'limits: 32 requests in progress per client; list keys of 1024 bytes, values of 1048576 bytes, 200000 data nodes per body; 2 bodies over 64 KiB decoded at once and 16 waiting; headers within 60 s, a whole request within 300 s, idle keep-alive 5 s; 1000 connections without an authenticated request; logins wait after 10 failures per address or 30 per user name',
    );
  });
});
