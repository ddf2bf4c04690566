// One NETCONF <edit-config> of running over SSH, sent from a process of its own so that building and
// encrypting the message is not counted as the server's work: connects, prints `ready`, and on a line
// of stdin sends `count` playlists and prints the outcome (`ok`, or the first error-tag).
// Usage: node netconf-edit.mjs <port> <user> <password> <count>
import { createInterface } from 'node:readline';
import { connectSsh, NetconfRpcError } from '@yangkit/netconf-client';

const [port, username, password, count] = process.argv.slice(2);
const session = await connectSsh({
  host: '127.0.0.1',
  port: Number(port),
  username,
  password,
  hostKey: 'accept-any',
});
const entries = Array.from({ length: Number(count) }, (_, i) => `<playlist><name>p${i}</name></playlist>`);
const config = `<jukebox xmlns="http://example.com/ns/example-jukebox">${entries.join('')}</jukebox>`;
const lines = createInterface({ input: process.stdin });
process.stdout.write(`ready ${config.length}\n`);
for await (const _ of lines) break;
let outcome = 'ok';
try {
  await session.editConfig({ target: 'running', config });
} catch (error) {
  outcome = error instanceof NetconfRpcError ? (error.errors[0]?.errorTag ?? 'rpc-error') : String(error);
}
process.stdout.write(`${outcome}\n`);
await session.close().catch(() => undefined);
process.exit(0);
