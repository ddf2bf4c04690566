import { expect, test, vi } from 'vitest';
import type { NetconfServer } from '../src/index.js';

const loaded = vi.hoisted(() => ({ ssh2: false }));
vi.mock('ssh2', async (importOriginal) => {
  loaded.ssh2 = true;
  return importOriginal();
});

test('the package loads ssh2 only when an SSH listener starts', async () => {
  const { startSshServer } = await import('../src/index.js');
  expect(loaded.ssh2).toBe(false);
  // The engine is used once a connection arrives; none does here.
  const listener = await startSshServer({} as NetconfServer, {
    users: [{ username: 'alice', password: 'wonderland' }],
    port: 0,
  });
  try {
    expect(loaded.ssh2).toBe(true);
  } finally {
    await listener.close();
  }
});
