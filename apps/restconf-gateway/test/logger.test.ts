import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { createLogger } from '../src/logger.js';

/** Whether pino-pretty's main module is in this process's CommonJS module cache. */
const pinoPrettyLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => /[/\\]pino-pretty[/\\]index\.js$/.test(f));

test('the logger loads pino-pretty only for text lines', () => {
  createLogger('silent', 'json').info('not written');
  expect(pinoPrettyLoaded()).toBe(false);
  createLogger('silent', 'pretty').info('not written');
  expect(pinoPrettyLoaded()).toBe(true);
});
