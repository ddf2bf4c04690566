#!/usr/bin/env -S node --max-semi-space-size=4
// The `yang-convert` command. The package's bin is this file rather than dist/bin.js, which a fresh
// clone has only after the build: installing the workspace links a bin only when its file exists.
// A conversion's nodes live until it ends, so V8's young generation only copies them on their way to
// the old one: a smaller one (4 MiB semi-spaces, the default grows to 16) costs less time and memory
// (figures in the README). `env -S`, and the shims npm and pnpm write from this line, pass the flag.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bin.js', import.meta.url);
if (existsSync(cli)) await import(cli.href);
else {
  process.stderr.write('yang-convert is not built yet: run pnpm build\n');
  process.exitCode = 1;
}
