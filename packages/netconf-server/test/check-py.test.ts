import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serveSsh } from './serve-ssh.js';

const run = promisify(execFile);
const CHECK_PY = path.resolve(__dirname, '../../../test-suites/interop/netconfd/check.py');
const PYTHON = '/usr/bin/python3';

async function hasNcclient(): Promise<boolean> {
  if (!existsSync(PYTHON) || !existsSync(CHECK_PY)) return false;
  try {
    await run(PYTHON, ['-c', 'import ncclient, paramiko, lxml']);
    return true;
  } catch {
    return false;
  }
}

const available = await hasNcclient();
if (!available && process.env.CI !== 'true') {
  console.warn(
    'check.py skipped: /usr/bin/python3 lacks ncclient (apt install python3-ncclient); CI=true makes this a failure',
  );
}

describe.skipIf(!available && process.env.CI !== 'true')('ncclient check.py against the SSH server', () => {
  let served: Awaited<ReturnType<typeof serveSsh>>;
  beforeAll(async () => {
    // The same module revisions netconfd serves.
    served = await serveSsh({ rfc7223: true });
  });
  afterAll(async () => {
    await served?.ssh.close();
    await served?.server.close();
  });

  test('passes every check that netconfd passes', async () => {
    const port = String(served.ssh.address.port);
    let stdout = '';
    try {
      ({ stdout } = await run(
        PYTHON,
        [CHECK_PY, '--host', '127.0.0.1', '--port', port, '--user', 'netconf', '--password', 'netconf'],
        { timeout: 120_000 },
      ));
    } catch (error) {
      stdout = (error as { stdout?: string }).stdout ?? String(error);
    }
    console.log(stdout.trim().split('\n').slice(-1)[0]);
    const failed = stdout.split('\n').filter((l) => l.startsWith('FAIL'));
    expect(failed, stdout).toEqual([]);
    expect(stdout).toMatch(/^\d+ passed, 0 failed, 0 skipped$/m);
  }, 150_000);
});
