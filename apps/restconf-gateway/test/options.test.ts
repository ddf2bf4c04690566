import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { GatewayError } from '../src/errors.js';
import { optionsFromArgs, parseHostPort, parseNetconfUrl } from '../src/options.js';

function failure(fn: () => unknown): GatewayError | undefined {
  try {
    fn();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}

function configFile(content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-config-'));
  const file = path.join(dir, 'config.json');
  writeFileSync(file, content);
  return file;
}

describe('optionsFromArgs', () => {
  test('maps flags to camel-case options', () => {
    expect(optionsFromArgs(['--restconf-strict-headers', '--message-indent=2'], {})).toEqual({
      help: false,
      options: { restconfStrictHeaders: true, messageIndent: 2 },
    });
  });

  test('reads --idle-collection=false and --max-heap-percent', () => {
    expect(optionsFromArgs(['--idle-collection=false', '--max-heap-percent=50'], {})).toEqual({
      help: false,
      options: { idleCollection: false, maxHeapPercent: 50 },
    });
  });

  test('answers --help without other checks', () => {
    expect(optionsFromArgs(['--help', '--wildcard-keys'], {})).toEqual({ help: true });
  });

  test('reads the config file and lets flags win over it', () => {
    const file = configFile(JSON.stringify({ port: 9000, host: '127.0.0.2', module: ['example-jukebox'] }));
    expect(optionsFromArgs([`--config=${file}`, '--port=9001'], {})).toEqual({
      help: false,
      options: { port: 9001, host: '127.0.0.2', module: ['example-jukebox'] },
    });
  });

  test('rejects an unknown key in the config file with exit code 2', () => {
    const error = failure(() => optionsFromArgs([`--config=${configFile('{"colour": 1}')}`], {}));
    expect(error?.code).toBe('INVALID_CONFIG');
    expect(error?.exitCode).toBe(2);
  });

  test('rejects a config file that is not JSON', () => {
    expect(failure(() => optionsFromArgs([`--config=${configFile('port: 1')}`], {}))?.code).toBe(
      'INVALID_CONFIG',
    );
  });

  test('rejects a config value of the wrong type', () => {
    expect(failure(() => optionsFromArgs([`--config=${configFile('{"port": "x"}')}`], {}))?.code).toBe(
      'INVALID_CONFIG',
    );
  });

  test('takes the NETCONF password from NETCONF_PASSWORD', () => {
    const c = optionsFromArgs(['--netconf=ssh://admin@192.0.2.1:830'], { NETCONF_PASSWORD: 'pw' });
    expect(c.help === false && c.options.netconfPassword).toBe('pw');
  });

  test('takes the NETCONF password from --netconf-password-file before the environment', () => {
    const file = configFile('from-file\nsecond line\n');
    const c = optionsFromArgs(['--netconf=ssh://admin@h', `--netconf-password-file=${file}`], {
      NETCONF_PASSWORD: 'env',
    });
    expect(c.help === false && c.options.netconfPassword).toBe('from-file');
  });

  test('refuses --netconf without any credential', () => {
    expect(failure(() => optionsFromArgs(['--netconf=ssh://admin@h'], {}))?.code).toBe('INVALID_FLAG');
  });

  test('refuses --startup-file together with --netconf', () => {
    const args = ['--netconf=ssh://a@h', '--startup-file=x'];
    expect(failure(() => optionsFromArgs(args, { NETCONF_PASSWORD: 'p' }))?.code).toBe('INVALID_FLAG');
  });

  test('refuses --netconf-ssh-listen without NETCONF_SSH_PASSWORD', () => {
    expect(failure(() => optionsFromArgs(['--netconf-ssh-listen=127.0.0.1:0'], {}))?.code).toBe(
      'INVALID_FLAG',
    );
  });

  test('maps --netconf-hello-timeout and --netconf-idle-timeout to options', () => {
    const c = optionsFromArgs(
      ['--netconf-ssh-listen=127.0.0.1:0', '--netconf-hello-timeout=5', '--netconf-idle-timeout=600'],
      { NETCONF_SSH_PASSWORD: 'pw' },
    );
    expect(c.help === false && c.options).toMatchObject({ netconfHelloTimeout: 5, netconfIdleTimeout: 600 });
  });

  test('refuses --netconf-idle-timeout without --netconf-ssh-listen', () => {
    expect(failure(() => optionsFromArgs(['--netconf-idle-timeout=60'], {}))?.code).toBe('INVALID_FLAG');
    expect(failure(() => optionsFromArgs(['--netconf-hello-timeout=60'], {}))?.code).toBe('INVALID_FLAG');
  });

  test('maps the output flags of the spec to options', () => {
    const c = optionsFromArgs(
      [
        '--wildcard-keys',
        '--with-yang-metadata=false',
        '--system-sort-type=descending',
        '--with-restconf=false',
      ],
      {},
    );
    expect(c.help === false && c.options).toMatchObject({
      wildcardKeys: true,
      withYangMetadata: false,
      systemSortType: 'descending',
      withRestconf: false,
    });
  });

  test('takes SSE_KEEPALIVE from the environment when no flag names it', () => {
    const c = optionsFromArgs([], { SSE_KEEPALIVE: '30' });
    expect(c.help === false && c.options.sseKeepalive).toBe(30);
  });

  test('refuses an SSE keepalive between 1 and 4 seconds', () => {
    expect(failure(() => optionsFromArgs(['--sse-keepalive=3'], {}))?.code).toBe('INVALID_FLAG');
  });

  test('refuses --tls-cert without --tls-key', () => {
    expect(failure(() => optionsFromArgs(['--tls-cert=c.pem'], {}))?.code).toBe('INVALID_FLAG');
  });

  test('refuses --http-user without a password', () => {
    expect(failure(() => optionsFromArgs(['--http-user=admin'], {}))?.code).toBe('INVALID_FLAG');
  });

  test('refuses a --restconf-server-url that is not an HTTP URL', () => {
    expect(failure(() => optionsFromArgs(['--restconf-server-url=example.com'], {}))?.code).toBe(
      'INVALID_FLAG',
    );
  });
});

describe('parseNetconfUrl', () => {
  test('reads user, host and port', () => {
    expect(parseNetconfUrl('ssh://netconf@127.0.0.1:8830')).toEqual({
      username: 'netconf',
      host: '127.0.0.1',
      port: 8830,
    });
  });

  test('defaults to port 830 (RFC 6242 section 3)', () => {
    expect(parseNetconfUrl('ssh://admin@router.example').port).toBe(830);
  });

  test('unwraps an IPv6 address', () => {
    expect(parseNetconfUrl('ssh://admin@[::1]:2022').host).toBe('::1');
  });

  test('refuses a password in the URL', () => {
    expect(failure(() => parseNetconfUrl('ssh://admin:secret@h'))?.code).toBe('INVALID_FLAG');
  });

  test('refuses another scheme', () => {
    expect(failure(() => parseNetconfUrl('https://admin@h'))?.code).toBe('INVALID_FLAG');
  });

  test('throws only its own error on any text', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        failure(() => parseNetconfUrl(s));
        failure(() => parseHostPort(s, '--x'));
      }),
    );
  });
});

describe('parseHostPort', () => {
  test('reads an IPv6 address in brackets', () => {
    expect(parseHostPort('[::1]:830', '--x')).toEqual({ host: '::1', port: 830 });
  });
});
