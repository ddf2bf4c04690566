/**
 * Starts the server over SSH for interoperability checks: prints `PORT <n>` once listening.
 * Usage: node --import tsx test/serve-ssh.ts (run through vitest's child in tests).
 */
import { exampleHandlers } from '../src/example-handlers.js';
import { NetconfServer } from '../src/server.js';
import { startSshServer } from '../src/ssh.js';
import { rfc7223Schema, testSchema } from './helpers.js';

export async function serveSsh(
  options: { startupMode?: 'auto' | 'explicit'; candidate?: boolean; rfc7223?: boolean } = {},
) {
  const server = await NetconfServer.create({
    schema: await (options.rfc7223 ? rfc7223Schema() : testSchema()),
    startupMode: options.startupMode ?? 'explicit',
    candidate: options.candidate ?? true,
  });
  exampleHandlers(server);
  const ssh = await startSshServer(server, {
    host: '127.0.0.1',
    port: 0,
    users: [{ username: 'netconf', password: 'netconf' }],
  });
  return { server, ssh };
}
