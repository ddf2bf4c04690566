// One NETCONF request over SSH, sent from a process of its own so that building, encrypting and
// reading the messages is not counted as the server's work: connects, prints `ready <bytes>`, and on
// a line of stdin sends the request and prints the outcome (`ok`, or the first error-tag).
// Usage: node netconf-request.mjs <port> <user> <password> edit-config <count>
//   an <edit-config> of running with `count` playlists (`ready` gives the size of its config);
// or:    node netconf-request.mjs <port> <user> <password> get-config [subtree|xpath <filter>]
//   a <get-config> of running, with a subtree filter (its XML) or an XPath one (prefix `j` for the
//   jukebox) if given (the outcome is `ok <bytes of the reply's data>`).
import { createInterface } from 'node:readline';
import { connectSsh, NetconfRpcError } from '@yangkit/netconf-client';

const [port, username, password, operation, count, filterText] = process.argv.slice(2);
const session = await connectSsh({
  host: '127.0.0.1',
  port: Number(port),
  username,
  password,
  hostKey: 'accept-any',
});
const entries = Array.from(
  { length: operation === 'get-config' ? 0 : Number(count ?? 0) },
  (_, i) => `<playlist><name>p${i}</name></playlist>`,
);
const config = `<jukebox xmlns="http://example.com/ns/example-jukebox">${entries.join('')}</jukebox>`;
const filter =
  count === 'subtree'
    ? { subtree: filterText }
    : count === 'xpath'
      ? { xpath: filterText, namespaces: { j: 'http://example.com/ns/example-jukebox' } }
      : undefined;
const request =
  operation === 'get-config'
    ? async () => `ok ${(await session.getConfig({ source: 'running', filter })).length}`
    : async () => {
        await session.editConfig({ target: 'running', config });
        return 'ok';
      };
const lines = createInterface({ input: process.stdin });
process.stdout.write(`ready ${operation === 'get-config' ? 0 : config.length}\n`);
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
