import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli';
import { corpusDir, sharedYang } from './helpers';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures/paths', name), 'utf8');

describe('yang-schema paths (golden files)', () => {
  test('prints ietf-interfaces with the ietf-ip augments', async () => {
    const r = await run('paths', '-p', corpusDir, 'ietf-interfaces', 'ietf-ip');
    expect(r.stdout).toBe(fixture('ietf-interfaces-ip.txt'));
  });

  test('prints example-jukebox from its file', async () => {
    const r = await run(
      'paths',
      '--path',
      sharedYang,
      path.join(sharedYang, 'examples/example-jukebox@2016-08-15.yang'),
    );
    expect(r.stdout).toBe(fixture('example-jukebox.txt'));
  });

  test('prints ietf-yang-library 2019-01-04', async () => {
    const r = await run('paths', '-p', corpusDir, 'ietf-yang-library@2019-01-04');
    expect(r.stdout).toBe(fixture('ietf-yang-library.txt'));
  });

  test('prints openconfig-interfaces', async () => {
    const r = await run('paths', '-p', corpusDir, 'openconfig-interfaces');
    expect(r.stdout).toBe(fixture('openconfig-interfaces.txt'));
  });

  test('prints the rc:yang-data templates of ietf-restconf and ietf-yang-patch under their names', async () => {
    const r = await run('paths', 'ietf-restconf', 'ietf-yang-patch');
    expect(r.stdout).toBe(fixture('ietf-restconf-yang-patch.txt'));
    expect(r.stdout).toContain(
      'yang-data ietf-restconf:yang-errors:\n/ietf-restconf:errors\tcontainer\t-\t-\t-\n',
    );
    expect(r.stdout).toContain(
      '/ietf-yang-patch:yang-patch/edit/operation\tleaf\tenumeration\t-\tmandatory\n',
    );
  });

  test('prints the error-info structures of ietf-subscribed-notifications', async () => {
    const r = await run('paths', 'ietf-subscribed-notifications');
    expect(r.stdout).toContain(
      'yang-data ietf-subscribed-notifications:delete-subscription-error-info:\n' +
        '/ietf-subscribed-notifications:delete-subscription-error-info\tcontainer\t-\t-\t-\n' +
        '/ietf-subscribed-notifications:delete-subscription-error-info/reason\tleaf\tidentityref\t-\tmandatory\n',
    );
  });

  test('prints an sx:structure template under its name, the structure as its top node', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yang-schema-'));
    try {
      // The extension statements of RFC 8791's module, which the schema needs to compile a structure.
      writeFileSync(
        path.join(dir, 'ietf-yang-structure-ext.yang'),
        'module ietf-yang-structure-ext { yang-version 1.1; namespace "urn:ietf:params:xml:ns:yang:ietf-yang-structure-ext"; ' +
          'prefix sx; extension structure { argument name; } extension augment-structure { argument path; } }',
      );
      writeFileSync(
        path.join(dir, 'msg.yang'),
        'module msg { yang-version 1.1; namespace "urn:msg"; prefix m; import ietf-yang-structure-ext { prefix sx; } ' +
          'sx:structure message { leaf id { type uint32; mandatory true; } list part { leaf text { type string; } } } }',
      );
      const r = await run('paths', '-p', dir, 'msg');
      expect(r.stdout).toBe(
        'structure msg:message:\n' +
          '/msg:message\tcontainer\t-\t-\t-\n' +
          '/msg:message/id\tleaf\tuint32\t-\tmandatory\n' +
          '/msg:message/part\tlist\t-\t-\tkeyless\n' +
          '/msg:message/part/text\tleaf\tstring\t-\t-\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('writes the ietf-ip address leaf as in RFC 8344 with the module name where it changes', () => {
    expect(fixture('ietf-interfaces-ip.txt')).toContain(
      '/ietf-interfaces:interfaces/interface/ietf-ip:ipv4/address/ip\tleaf\tstring\trw\tkey\n',
    );
  });
});

describe('yang-schema CLI', () => {
  test('tree draws template nodes without config flags, as yanglint does', async () => {
    const r = await run('tree', 'ietf-restconf');
    expect(r.stdout).toContain('  yang-data yang-errors:\n    +---- errors\n       +---- error*\n');
  });

  test('check exits 0 for a module that compiles', async () => {
    const r = await run('check', '-p', corpusDir, 'ietf-ip');
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('check exits 1 with the missing module named', async () => {
    const r = await run('check', '-p', corpusDir, 'no-such-module');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('module "no-such-module" not found');
  });

  test('check exits 1 with a located syntax error', async () => {
    const file = path.join(__dirname, 'fixtures/bad/bad-syntax.yang');
    const r = await run('check', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad-syntax\.yang:6:5: /);
  });

  test('--features leaves out nodes under a disabled feature', async () => {
    const all = await run('paths', '-p', corpusDir, 'ietf-interfaces');
    const none = await run('paths', '-p', corpusDir, '-F', 'ietf-interfaces:', 'ietf-interfaces');
    expect(all.stdout).toContain('/interface/link-up-down-trap-enable\t');
    expect(none.stdout).not.toContain('/interface/link-up-down-trap-enable\t');
  });

  test('tree prints an RFC 8340 diagram', async () => {
    const r = await run('tree', '-p', sharedYang, 'example-jukebox');
    expect(r.stdout).toContain('module: example-jukebox\n  +--rw jukebox!\n     +--rw library\n');
    expect(r.stdout).toContain('     |  +--rw artist* [name]\n');
    expect(r.stdout).toContain('  rpcs:\n    +---x play\n       +---w input\n');
  });

  test('tree output of example-jukebox matches its golden file', async () => {
    const r = await run('tree', '-p', sharedYang, 'example-jukebox');
    expect(r.stdout).toBe(readFileSync(path.join(__dirname, 'fixtures/tree/example-jukebox.txt'), 'utf8'));
  });

  test('tree output of ietf-ip matches its golden file', async () => {
    const r = await run('tree', '-p', corpusDir, 'ietf-ip');
    expect(r.stdout).toBe(readFileSync(path.join(__dirname, 'fixtures/tree/ietf-ip.txt'), 'utf8'));
  });

  test('tree prints the augments of a module', async () => {
    const r = await run('tree', '-p', corpusDir, 'ietf-ip');
    expect(r.stdout).toContain('  augment /if:interfaces/if:interface:\n    +--rw ipv4!\n');
  });

  test('rejects an unknown command with exit code 2', async () => {
    const r = await run('frobnicate', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command');
  });

  test('prints usage for --help', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: yang-schema');
  });
});
