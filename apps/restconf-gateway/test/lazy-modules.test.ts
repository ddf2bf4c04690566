import { createRequire } from 'node:module';
import { pino } from 'pino';
import { expect, test } from 'vitest';
import { startGateway } from '../src/gateway.js';
import { createLogger } from '../src/logger.js';

/** Whether the CommonJS module `file` (a path's end, like `pino-pretty/index.js`) was loaded. */
const loaded = (file: string) =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => f.replaceAll('\\', '/').endsWith(`/${file}`));

test('the logger loads pino-pretty only for text lines', () => {
  createLogger('silent', 'json').info('not written');
  expect(loaded('pino-pretty/index.js')).toBe(false);
  createLogger('silent', 'pretty').info('not written');
  expect(loaded('pino-pretty/index.js')).toBe(true);
});

test('the gateway loads prom-client only with --metrics', async () => {
  const silent = { logger: pino({ level: 'silent' }) };
  const plain = await startGateway({ port: 0, initialData: '' }, silent);
  await plain.close();
  expect(loaded('prom-client/index.js')).toBe(false);
  const measured = await startGateway({ port: 0, initialData: '', metrics: true }, silent);
  const metrics = await (await fetch(`${measured.url}/metrics`)).text();
  await measured.close();
  expect(metrics).toContain('restconf_password_checks_total 0');
  expect(loaded('prom-client/index.js')).toBe(true);
});
