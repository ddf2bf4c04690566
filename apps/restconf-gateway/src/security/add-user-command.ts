import type { Readable } from 'node:stream';
import { GatewayError } from '../errors.js';
import { addUser } from './users-file.js';

/** Reads a whole stream (at most 4 KiB) and returns its first line: the password. */
async function readPassword(input: Readable): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    if (text.length > 4096)
      throw new GatewayError('INVALID_FLAG', 'the password on stdin is longer than 4096 bytes');
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * `restconf-gateway add-user --users-file FILE USER`: reads the password from `input` (stdin)
 * and adds the user, or replaces its password, in FILE with a fresh scrypt hash.
 */
export async function addUserCommand(argv: readonly string[], input: Readable): Promise<string> {
  let file: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--users-file') file = argv[++i];
    else if (arg.startsWith('--users-file=')) file = arg.slice('--users-file='.length);
    else rest.push(arg);
  }
  if (file === undefined || file === '' || rest.length !== 1) {
    throw new GatewayError(
      'INVALID_FLAG',
      'usage: restconf-gateway add-user --users-file FILE USER (password on stdin)',
    );
  }
  const user = rest[0]!;
  await addUser(file, user, await readPassword(input));
  return `added ${user} to ${file}\n`;
}
