import { expect, test, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ ssh2: false }));
vi.mock('ssh2', async (importOriginal) => {
  loaded.ssh2 = true;
  return importOriginal();
});

test('the package loads ssh2 only when an SSH connection is opened', async () => {
  const { connectSsh } = await import('../src/index.js');
  expect(loaded.ssh2).toBe(false);
  // Nothing listens on port 1: the connection fails, after ssh2 was loaded to make it.
  await expect(
    connectSsh({
      host: '127.0.0.1',
      port: 1,
      username: 'alice',
      password: 'x',
      hostKey: 'accept-any',
      connectTimeout: 2000,
    }),
  ).rejects.toThrow();
  expect(loaded.ssh2).toBe(true);
});
