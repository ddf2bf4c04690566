import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { setRemoteUser } from '../src/basic-auth.js';
import { type MonitoringAccessOptions, monitoringAccess } from '../src/security/monitoring-access.js';

let server: Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))),
);

/** Serves `passed` to what the check lets through, as the user of the `X-User` header. */
async function serve(
  options: MonitoringAccessOptions,
): Promise<(path: string, user?: string) => Promise<number>> {
  const check = monitoringAccess(options);
  server = createServer((req, res) => {
    const user = req.headers['x-user'];
    if (typeof user === 'string') setRemoteUser(req, user);
    if (check(req, res)) res.end('passed');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  return async (path, user) =>
    (await fetch(url + path, { headers: user === undefined ? {} : { 'X-User': user } })).status;
}

describe('monitoringAccess', () => {
  test('answers 403 to a user it does not name on a page that is served', async () => {
    const get = await serve({ users: new Set(['root']), metrics: true, serverStatus: true });
    expect([await get('/metrics', 'alice'), await get('/server-status?x=1', 'alice')]).toEqual([403, 403]);
    expect(await get('/metrics', 'root')).toBe(200);
  });

  test('lets every other path through', async () => {
    const get = await serve({ users: new Set(['root']), metrics: true, serverStatus: false });
    expect([await get('/restconf/data', 'alice'), await get('/server-status', 'alice')]).toEqual([200, 200]);
  });

  test('lets everyone read on a server that authenticates nobody', async () => {
    const get = await serve({ users: undefined, metrics: true, serverStatus: true });
    expect(await get('/metrics')).toBe(200);
  });
});
