// ssh2 is CommonJS; Node's ESM loader sees only some of its exports by name (not Server or utils).
// The gateway's build points the `ssh2` imports of @yangkit/netconf-server here, and loads ssh2
// the way that package resolves it.
import { createRequire } from 'node:module';

const fromApp = createRequire(import.meta.url);
const ssh2 = createRequire(fromApp.resolve('@yangkit/netconf-server/package.json'))('ssh2');

export const { Client, Server, utils } = ssh2;
export default ssh2;
