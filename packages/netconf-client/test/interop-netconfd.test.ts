/**
 * Interop with a real server: yuma123 netconfd behind OpenSSH, started by
 * test-suites/interop/netconfd/netconfd.sh (CI exports NETCONF_HOST, NETCONF_PORT, NETCONF_USER,
 * NETCONF_PASSWORD, NETCONF_PRIVATE_KEY). Skipped without NETCONF_HOST, except under CI=true
 * where a missing server is a failure.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  connectSsh,
  fingerprintSha256,
  type NetconfRpcError,
  type NetconfSession,
  SshConnection,
} from '../src/index.js';
import type { SessionOptions } from '../src/session.js';
import type { SshOptions } from '../src/transport-ssh.js';

const env = process.env;
const enabled = Boolean(env.NETCONF_HOST);

test.runIf(!enabled && env.CI === 'true')('CI provides a NETCONF server through NETCONF_HOST', () => {
  expect.fail(
    'NETCONF_HOST is not set; .ci/run starts netconfd with test-suites/interop/netconfd/netconfd.sh',
  );
});

const IF = 'urn:ietf:params:xml:ns:yang:ietf-interfaces';
const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const IANAIFT = 'urn:ietf:params:xml:ns:yang:iana-if-type';
const prefix = `ykc${process.pid}`;
const ifFilter = `<interfaces xmlns="${IF}"/>`;

function iface(name: string, operation?: string): string {
  const op = operation ? ` nc:operation="${operation}"` : '';
  const body =
    operation === 'delete' || operation === 'remove'
      ? `<name>${name}</name>`
      : `<name>${name}</name><type xmlns:ianaift="${IANAIFT}">ianaift:ethernetCsmacd</type>`;
  return `<interfaces xmlns="${IF}" xmlns:nc="${NC}"><interface${op}>${body}</interface></interfaces>`;
}

function names(xml: string): string[] {
  return [...xml.matchAll(/<name>([^<]*)<\/name>/g)].map((m) => m[1]!);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(enabled)('interop with yuma123 netconfd', { timeout: 60_000 }, () => {
  let fingerprint = '';
  let keyBlob = Buffer.alloc(0);
  const sessions: NetconfSession[] = [];
  const ssh = (): SshOptions & SessionOptions => ({
    rpcTimeout: 30_000,
    host: env.NETCONF_HOST!,
    port: Number(env.NETCONF_PORT ?? 830),
    username: env.NETCONF_USER ?? 'netconf',
    password: env.NETCONF_PASSWORD ?? 'netconf',
    hostKey: { fingerprint },
  });
  const open = async (extra: Partial<SshOptions & SessionOptions> = {}) => {
    const session = await connectSsh({ ...ssh(), ...extra });
    sessions.push(session);
    return session;
  };
  const runningNames = async (s: NetconfSession) =>
    names(await s.getConfig({ source: 'running', filter: ifFilter }));

  beforeAll(async () => {
    // Trust on first use, recorded here, then pinned for every other connection.
    const first = await connectSsh({
      ...ssh(),
      hostKey: 'accept-any',
      onHostKey: (f, blob) => {
        fingerprint = f;
        keyBlob = Buffer.from(blob);
      },
    });
    await first.close();
  });

  afterAll(async () => {
    const s = await open();
    await s.discardChanges();
    const leftovers = (await runningNames(s)).filter((n) => n.startsWith(prefix));
    for (const n of leftovers) await s.editConfig({ target: 'candidate', config: iface(n, 'remove') });
    if (leftovers.length > 0) await s.commit();
    await Promise.all(sessions.map((x) => x.close()));
  });

  describe('connection', () => {
    test('completes the hello with a session-id and chunked framing', async () => {
      const s = await open();
      expect(s.sessionId).toBeGreaterThan(0);
      expect(s.framing).toBe('chunked');
      expect(s.capabilities.protocol.get('candidate')).toBe('1.0');
      expect(s.capabilities.protocol.get('confirmed-commit')).toBe('1.1');
      expect(s.capabilities.withDefaults?.basicMode).toBe('explicit');
      expect(s.capabilities.yangLibrary?.moduleSetId).toMatch(/^[0-9a-f]+$/);
      expect(s.capabilities.modules.find((m) => m.module === 'ietf-interfaces')?.features).toContain(
        'if-mib',
      );
    });

    test('talks end-of-message framing when only base:1.0 is offered', async () => {
      const s = await open({ baseVersions: ['1.0'] });
      expect(s.framing).toBe('eom');
      expect(
        await s.get({
          filter:
            '<modules-state xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-library"><module-set-id/></modules-state>',
        }),
      ).toContain('module-set-id');
    });

    test('refuses a wrong pinned host key', async () => {
      const wrong = `SHA256:${Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '')}`;
      await expect(connectSsh({ ...ssh(), hostKey: { fingerprint: wrong } })).rejects.toMatchObject({
        code: 'HOST_KEY_MISMATCH',
      });
    });

    test('accepts the host key from a known_hosts line', async () => {
      const type = keyBlob.toString('latin1', 4, 4 + keyBlob.readUInt32BE(0));
      const line = `[${env.NETCONF_HOST}]:${env.NETCONF_PORT} ${type} ${keyBlob.toString('base64')}`;
      const s = await open({ hostKey: { knownHosts: line } });
      expect(fingerprintSha256(keyBlob)).toBe(fingerprint);
      expect(s.sessionId).toBeGreaterThan(0);
    });

    test.runIf(Boolean(env.NETCONF_PRIVATE_KEY))('logs in with the private key', async () => {
      const s = await open({
        password: undefined as unknown as string,
        privateKey: readFileSync(env.NETCONF_PRIVATE_KEY!),
      });
      expect(s.sessionId).toBeGreaterThan(0);
    });

    test.runIf(Boolean(env.NETCONF_PRIVATE_KEY) && existsSync('/usr/bin/ssh-agent'))(
      'logs in through ssh-agent',
      async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'ncc-agent-'));
        const socket = path.join(dir, 'agent.sock');
        // -D keeps the agent in the foreground, so this test owns and ends exactly that process.
        const agent = spawn('/usr/bin/ssh-agent', ['-D', '-a', socket], { stdio: 'ignore' });
        try {
          for (let i = 0; i < 50 && !existsSync(socket); i++) await sleep(50);
          execFileSync('/usr/bin/ssh-add', [env.NETCONF_PRIVATE_KEY!], {
            env: { ...process.env, SSH_AUTH_SOCK: socket },
            stdio: 'ignore',
          });
          const s = await open({ password: undefined as unknown as string, agent: socket });
          expect(s.sessionId).toBeGreaterThan(0);
        } finally {
          agent.kill();
        }
      },
    );

    test('refuses a wrong password with AUTH_FAILED', async () => {
      await expect(connectSsh({ ...ssh(), password: 'not-the-password' })).rejects.toMatchObject({
        code: 'AUTH_FAILED',
      });
    });
  });

  describe('operations', () => {
    test('get with a subtree filter returns the yang-library module-set-id', async () => {
      const s = await open();
      const data = await s.get({
        filter:
          '<modules-state xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-library"><module-set-id/></modules-state>',
      });
      expect(data).toContain(`<module-set-id>${s.capabilities.yangLibrary?.moduleSetId}</module-set-id>`);
    });

    test('get with an xpath filter lists the datastores', async () => {
      const s = await open();
      const data = await s.get({
        filter: {
          xpath: '/mon:netconf-state/mon:datastores/mon:datastore/mon:name',
          namespaces: { mon: 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring' },
        },
      });
      expect(names(data).sort()).toEqual(['candidate', 'running', 'startup']);
    });

    test('keeps several RPCs in flight on one session', async () => {
      const s = await open();
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => s.getConfig({ source: 'running', filter: ifFilter })),
      );
      expect(new Set(replies).size).toBe(1);
    });

    test('get-config returns running with its namespaces', async () => {
      const s = await open();
      expect(await s.getConfig({ source: 'running' })).toContain(
        'urn:ietf:params:xml:ns:yang:ietf-netconf-acm',
      );
    });

    test('candidate edits reach running only on commit', async () => {
      const s = await open();
      const name = `${prefix}c`;
      await s.editConfig({ target: 'candidate', config: iface(name, 'create') });
      expect(names(await s.getConfig({ source: 'candidate', filter: ifFilter }))).toContain(name);
      expect(await runningNames(s)).not.toContain(name);
      expect((await s.commit()).ok).toBe(true);
      expect(await runningNames(s)).toContain(name);
    });

    test('discard-changes drops an uncommitted candidate edit', async () => {
      const s = await open();
      const name = `${prefix}d`;
      await s.editConfig({ target: 'candidate', config: iface(name, 'create') });
      expect((await s.discardChanges()).ok).toBe(true);
      expect(names(await s.getConfig({ source: 'candidate', filter: ifFilter }))).not.toContain(name);
    });

    test('copy-config copies running to startup', async () => {
      const s = await open();
      expect((await s.copyConfig({ target: 'startup', source: 'running' })).ok).toBe(true);
      expect(await s.getConfig({ source: 'startup' })).toContain(
        'urn:ietf:params:xml:ns:yang:ietf-netconf-acm',
      );
    });

    test('validate of running answers ok', async () => {
      // Not of candidate: after that, netconfd's next <commit> drops the candidate edits (see README).
      const s = await open();
      expect((await s.validate({ source: 'running' })).ok).toBe(true);
    });

    test('create on existing data fails with data-exists and its error-path', async () => {
      const s = await open();
      const name = `${prefix}e`;
      await s.editConfig({ target: 'candidate', config: iface(name, 'create') });
      await s.commit();
      const error = (await s
        .editConfig({ target: 'candidate', config: iface(name, 'create') })
        .catch((e) => e)) as NetconfRpcError;
      expect(error.code).toBe('RPC_ERROR');
      expect(error.errors[0]).toMatchObject({
        errorType: 'application',
        errorTag: 'data-exists',
        errorSeverity: 'error',
      });
      expect(error.errors[0]?.errorPath).toContain(`if:interface[if:name='${name}']`);
    });

    test('an unknown leaf fails with unknown-element and its bad-element', async () => {
      const s = await open();
      const config = `<interfaces xmlns="${IF}"><interface><name>${prefix}x</name><bogus-leaf>1</bogus-leaf></interface></interfaces>`;
      const error = (await s.editConfig({ target: 'candidate', config }).catch((e) => e)) as NetconfRpcError;
      expect(error.errors[0]?.errorTag).toBe('unknown-element');
      expect(error.errors[0]?.errorInfo?.fields['bad-element']).toBe('if:bogus-leaf');
      await s.discardChanges();
    });

    test('with-defaults report-all shows the default of enabled', async () => {
      const s = await open();
      const name = `${prefix}w`;
      await s.editConfig({ target: 'candidate', config: iface(name, 'create') });
      await s.commit();
      const filter = `<interfaces xmlns="${IF}"><interface><name>${name}</name></interface></interfaces>`;
      expect(await s.getConfig({ source: 'running', filter })).not.toContain('<enabled>');
      expect(await s.getConfig({ source: 'running', filter, withDefaults: 'report-all' })).toContain(
        '<enabled>true</enabled>',
      );
    });

    test('get-schema returns the YANG text of a module', async () => {
      const s = await open();
      const yang = await s.getSchema({
        identifier: 'ietf-interfaces',
        version: '2014-05-08',
        format: 'yang',
      });
      expect(yang).toContain('module ietf-interfaces');
      expect(yang).toContain('namespace "urn:ietf:params:xml:ns:yang:ietf-interfaces"');
    });

    test('get-schema of an unknown module fails with operation-failed', async () => {
      const s = await open();
      await expect(s.getSchema({ identifier: 'no-such-module' })).rejects.toMatchObject({
        errors: [expect.objectContaining({ errorTag: 'operation-failed' })],
      });
    });
  });

  describe('confirmed commit', () => {
    test('a persistent confirmed commit survives its session and is confirmed by persist-id', async () => {
      const name = `${prefix}p`;
      const token = `${prefix}-persist`;
      const a = await open();
      await a.editConfig({ target: 'candidate', config: iface(name, 'create') });
      await a.commit({ confirmed: true, confirmTimeout: 60, persist: token });
      await a.close();
      const b = await open();
      expect(await runningNames(b)).toContain(name);
      await expect(b.commit({ persistId: `wrong-${token}` })).rejects.toMatchObject({
        errors: [expect.objectContaining({ errorTag: 'invalid-value' })],
      });
      expect((await b.commit({ persistId: token })).ok).toBe(true);
      await expect(b.cancelCommit({ persistId: token })).rejects.toMatchObject({ code: 'RPC_ERROR' });
      expect(await runningNames(b)).toContain(name);
    });

    test('cancel-commit with persist-id from another session reverts running', async () => {
      const name = `${prefix}k`;
      const token = `${prefix}-cancel`;
      const a = await open();
      await a.editConfig({ target: 'candidate', config: iface(name, 'create') });
      await a.commit({ confirmed: true, confirmTimeout: 60, persist: token });
      const b = await open();
      expect(await runningNames(b)).toContain(name);
      expect((await b.cancelCommit({ persistId: token })).ok).toBe(true);
      expect(await runningNames(b)).not.toContain(name);
    });
  });

  describe('session lifecycle', () => {
    test('a lock is released when its session ends', async () => {
      const a = await open();
      const b = await open();
      await a.lock({ target: 'startup' });
      const denied = (await b.lock({ target: 'startup' }).catch((e) => e)) as NetconfRpcError;
      expect(denied.errors[0]?.errorTag).toBe('lock-denied');
      expect(denied.errors[0]?.errorInfo?.fields['session-id']).toBe(String(a.sessionId));
      a.destroy();
      let locked = false;
      for (let i = 0; i < 25 && !locked; i++) {
        locked = await b.lock({ target: 'startup' }).then(
          () => true,
          () => false,
        );
        if (!locked) await sleep(200);
      }
      expect(locked).toBe(true);
      await b.unlock({ target: 'startup' });
    });

    test('kill-session ends another session', async () => {
      const a = await open();
      const b = await open();
      expect((await a.killSession(b.sessionId)).ok).toBe(true);
      expect((await b.closed).reason).toBe('transport-closed');
    });

    test('close-session ends the session with reason closed', async () => {
      const s = await connectSsh(ssh());
      expect(await s.close()).toEqual({ reason: 'closed' });
    });

    test('a notification arrives after an edit', async () => {
      const subscriber = await open();
      const iterator = subscriber.notifications();
      await subscriber.createSubscription({ stream: 'NETCONF' });
      const editor = await open();
      await editor.editConfig({ target: 'candidate', config: iface(`${prefix}n`, 'create') });
      await editor.commit();
      // netconfd sends events only after a quiet second (README quirk 3): wait without polling.
      let change: string | undefined;
      const deadline = Date.now() + 15_000;
      while (change === undefined && Date.now() < deadline) {
        const next = await Promise.race([
          iterator.next(),
          sleep(deadline - Date.now()).then(() => undefined),
        ]);
        if (next === undefined || next.done) break;
        if (next.value.xml.includes('netconf-config-change')) change = next.value.xml;
      }
      expect(change).toContain(`${prefix}n`);
    });

    test('an RPC in flight fails with SESSION_CLOSED when the server side dies', async () => {
      const sockets: net.Socket[] = [];
      const proxy = net.createServer((client) => {
        const upstream = net.connect(Number(env.NETCONF_PORT), env.NETCONF_HOST!);
        sockets.push(client, upstream);
        client.pipe(upstream).pipe(client);
        client.on('error', () => {});
        upstream.on('error', () => {});
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const port = (proxy.address() as net.AddressInfo).port;
      try {
        const s = await connectSsh({ ...ssh(), host: '127.0.0.1', port, hostKey: 'accept-any' });
        // Hold the server's answers back, send an RPC, then kill the connection under it.
        sockets[1]!.unpipe();
        sockets[1]!.pause();
        const pending = s.get({ filter: ifFilter }).catch((e) => e);
        await sleep(100);
        for (const socket of sockets) socket.destroy();
        expect(await pending).toMatchObject({ code: 'SESSION_CLOSED' });
        expect((await s.closed).reason).toBe('transport-closed');
      } finally {
        proxy.close();
      }
    });
  });

  test('one SSH connection carries eight sessions at once', async () => {
    const connection = await SshConnection.connect(ssh());
    try {
      const held = await Promise.all(Array.from({ length: 8 }, () => connection.openSession()));
      expect(new Set(held.map((s) => s.sessionId)).size).toBe(8);
      const replies = await Promise.all(
        held.map((s) => s.getConfig({ source: 'running', filter: ifFilter })),
      );
      expect(replies).toHaveLength(8);
    } finally {
      await connection.close();
    }
  });
});
