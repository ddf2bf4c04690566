#!/usr/bin/env node
import { runCli } from './cli-run.js';

// The `yangkit` command: Ctrl-C ends a `subscribe` cleanly; the exit code is runCli's.
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: controller.signal,
}).then((code) => {
  process.exitCode = code;
});
