// One NETCONF request over SSH, sent from a process of its own so that building, encrypting and
// reading the messages is not counted as the server's work: connects, prints `ready <bytes>`, and on
// a line of stdin sends the request and prints the outcome (`ok`, or the first error-tag).
// Usage: node netconf-request.mjs <port> <user> <password> edit-config <count>
//   an <edit-config> of running with `count` playlists (`ready` gives the size of its config);
// or:    node netconf-request.mjs <port> <user> <password> get-config [subtree|xpath <filter>]
//   a <get-config> of running, with a subtree filter (its XML) or an XPath one (prefix `j` for the
//   jukebox) if given (the outcome is `ok <bytes of the reply's data>`);
// or:    node netconf-request.mjs <port> <user> <password> copy-config <source> <target>
//   a <copy-config> from one datastore to another.
import { createInterface } from 'node:readline';
import { connectSsh, NetconfRpcError } from '@yangkit/netconf-client';

const [port, username, password, operation, ...args] = process.argv.slice(2);
const session = await connectSsh({
  host: '127.0.0.1',
  port: Number(port),
  username,
  password,
  hostKey: 'accept-any',
});
const entries = Array.from(
  { length: operation === 'edit-config' ? Number(args[0] ?? 0) : 0 },
  (_, i) => `<playlist><name>p${i}</name></playlist>`,
);
const config = `<jukebox xmlns="http://example.com/ns/example-jukebox">${entries.join('')}</jukebox>`;
const filter =
  args[0] === 'subtree'
    ? { subtree: args[1] }
    : args[0] === 'xpath'
      ? { xpath: args[1], namespaces: { j: 'http://example.com/ns/example-jukebox' } }
      : undefined;
const requests = {
  'get-config': async () => `ok ${(await session.getConfig({ source: 'running', filter })).length}`,
  'edit-config': async () => {
    await session.editConfig({ target: 'running', config });
    return 'ok';
  },
  'copy-config': async () => {
    await session.copyConfig({ source: args[0], target: args[1] });
    return 'ok';
  },
};
const request = requests[operation];
const lines = createInterface({ input: process.stdin });
process.stdout.write(`ready ${operation === 'edit-config' ? config.length : 0}\n`);
for await (const _ of lines) break;
let outcome;
try {
  outcome = await request();
} catch (error) {
  outcome = error instanceof NetconfRpcError ? (error.errors[0]?.errorTag ?? 'rpc-error') : String(error);
}
process.stdout.write(`${outcome}\n`);
await session.close().catch(() => undefined);
process.exit(0);
