#!/usr/bin/env -S node --max-semi-space-size=4
// The `restconf-gateway` command. The package's bin is this file rather than dist/cli.js, which a fresh
// clone has only after the build: installing the workspace links a bin only when its file exists.
// A request's garbage dies young, so V8's young generation needs little room: 4 MiB semi-spaces (the
// default grows to 16) keep the gateway 25 to 30 MB smaller at rest, at the same speed (figures in the
// README). `env -S`, and the shims npm and pnpm write from this line, pass the flag.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) await import(cli.href);
else {
  process.stderr.write('restconf-gateway is not built yet: run pnpm build\n');
  process.exitCode = 1;
}
