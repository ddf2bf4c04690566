/**
 * The examples of README.md, from its text. Those that talk to a NETCONF server run against the
 * netconfd of the interop tests (NETCONF_HOST, NETCONF_PORT, NETCONF_USER, NETCONF_PASSWORD),
 * trusted through a known_hosts file in a HOME of their own; they are skipped without
 * NETCONF_HOST, except under CI=true where a missing server is a failure.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { readmeExamples, runExample } from '../../../test-support/readme-examples.js';

const env = process.env;
const examples = readmeExamples(path.resolve(__dirname, '../README.md')).filter((e) => !e.continued);
const needsServer = (code: string) => code.includes('port: 8830');

test.runIf(!env.NETCONF_HOST && env.CI === 'true')(
  'CI provides a NETCONF server through NETCONF_HOST',
  () => {
    expect.fail(
      'NETCONF_HOST is not set; .ci/run starts netconfd with test-suites/interop/netconfd/netconfd.sh',
    );
  },
);

for (const example of examples.filter((e) => !needsServer(e.code)))
  test(`${example.name} runs as written`, async () => {
    await runExample(example);
  });

for (const example of examples.filter((e) => needsServer(e.code)))
  test.runIf(Boolean(env.NETCONF_HOST))(`${example.name} runs as written against netconfd`, async () => {
    const host = env.NETCONF_HOST!;
    const port = env.NETCONF_PORT ?? '830';
    const home = mkdtempSync(path.join(tmpdir(), 'netconf-client-readme-'));
    mkdirSync(path.join(home, '.ssh'));
    const keys = execFileSync('ssh-keyscan', ['-p', port, host], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    writeFileSync(path.join(home, '.ssh', 'known_hosts'), keys);
    const ownHome = env.HOME;
    env.HOME = home;
    try {
      await runExample(example, [
        ["host: '127.0.0.1'", `host: '${host}'`],
        ['port: 8830', `port: ${port}`],
        ["username: 'netconf'", `username: '${env.NETCONF_USER ?? 'netconf'}'`],
        ["password: 'netconf'", `password: '${env.NETCONF_PASSWORD ?? 'netconf'}'`],
      ]);
    } finally {
      env.HOME = ownHome;
    }
  });
