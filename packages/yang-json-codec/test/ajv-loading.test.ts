import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { testSchema } from './helpers';

/** Whether ajv's main module is in this process's CommonJS module cache. */
const ajvLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => /[/\\]ajv[/\\]dist[/\\]ajv\.js$/.test(f));

test('the codec loads ajv only when a JSON Schema validator is compiled', async () => {
  const { compileJsonValidator } = await import('../src/index');
  expect(ajvLoaded()).toBe(false);
  const check = compileJsonValidator(await testSchema());
  expect(check({ 'codec-types:types': { u8: 1 } }).valid).toBe(true);
  expect(ajvLoaded()).toBe(true);
}, 60_000);
