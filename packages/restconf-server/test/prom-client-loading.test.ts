import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import { startGateway } from './harness.js';

/** Whether prom-client's main module is in this process's CommonJS module cache. */
const promClientLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((f) => /[/\\]prom-client[/\\]index\.js$/.test(f));

test('the handler loads prom-client only when metrics are asked for', async () => {
  const plain = await startGateway();
  expect((await plain.fetch('/restconf/data/example-jukebox:jukebox')).status).toBeLessThan(500);
  await plain.close();
  expect(promClientLoaded()).toBe(false);
  const measured = await startGateway({ metrics: true });
  expect((await measured.fetch('/metrics')).status).toBe(200);
  await measured.close();
  expect(promClientLoaded()).toBe(true);
});
