#!/usr/bin/env node
// The `yang-openapi` command. The package's bin is this file rather than dist/bin.js, which a fresh
// clone has only after the build: installing the workspace links a bin only when its file exists.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bin.js', import.meta.url);
if (existsSync(cli)) await import(cli.href);
else {
  process.stderr.write('yang-openapi is not built yet: run pnpm build\n');
  process.exitCode = 1;
}
