import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testReadmeExamples } from '../../../test-support/readme-examples.js';

// The SSH example listens on a free port and keeps its host key in a folder of its own.
const keyDir = mkdtempSync(path.join(tmpdir(), 'netconf-server-readme-'));
testReadmeExamples(path.resolve(__dirname, '../README.md'), [
  ['port: 8830,', 'port: 0,'],
  ['/var/lib/yangkit/ssh_host_ed25519_key', path.join(keyDir, 'ssh_host_ed25519_key')],
]);
