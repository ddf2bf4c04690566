import { NetconfRpcError } from '@yangkit/netconf-client';
import { afterEach, describe, expect, test } from 'vitest';
import type { NetconfServer } from '../src/server.js';
import { client, IF, iface, NC, testServer } from './helpers.js';

let server: NetconfServer;
afterEach(async () => {
  await server?.close();
});

async function rpcError(p: Promise<unknown>): Promise<NetconfRpcError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof NetconfRpcError) return error;
    throw error;
  }
  throw new Error('expected an rpc-error');
}

describe('edit-config on running', () => {
  test('merges an interface that get-config then returns', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth0', '<description>up</description>') });
    const data = await c.getConfig({ source: 'running', filter: { subtree: `<interfaces xmlns="${IF}"/>` } });
    expect(data).toContain('<name>eth0</name>');
    expect(data).toContain('<description>up</description>');
    expect(data).toContain('ianaift:ethernetCsmacd');
  });

  test('create of an existing entry fails with data-exists and its error-path', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth0') });
    const e = await rpcError(c.editConfig({ target: 'running', config: iface('eth0', '', 'create') }));
    expect(e.errors[0]!.errorTag).toBe('data-exists');
    expect(e.errors[0]!.errorPath).toBe("/if:interfaces/if:interface[if:name='eth0']");
  });

  test('delete of a missing entry fails with data-missing', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcError(c.editConfig({ target: 'running', config: iface('nope', '', 'delete') }));
    expect(e.errors[0]!.errorTag).toBe('data-missing');
  });

  test('remove of a missing entry succeeds', async () => {
    server = await testServer();
    const c = await client(server);
    await expect(
      c.editConfig({ target: 'running', config: iface('nope', '', 'remove') }),
    ).resolves.toBeTruthy();
  });

  test('an unknown leaf fails with unknown-element naming it', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcError(
      c.editConfig({
        target: 'running',
        config: `<interfaces xmlns="${IF}"><interface><name>x</name><bogus>1</bogus></interface></interfaces>`,
      }),
    );
    expect(e.errors[0]!.errorTag).toBe('unknown-element');
    expect(e.errors[0]!.errorInfo?.fields['bad-element']).toBe('bogus');
  });

  test('a bad boolean fails with invalid-value and bad-value', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcError(
      c.editConfig({ target: 'running', config: iface('eth0', '<enabled>maybe</enabled>') }),
    );
    expect(e.errors[0]!.errorTag).toBe('invalid-value');
    expect(e.errors[0]!.errorPath).toBe("/if:interfaces/if:interface[if:name='eth0']/if:enabled");
    expect(e.errors[0]!.errorInfo?.fields['bad-value']).toBe('maybe');
  });

  test('rollback-on-error undoes the edits made before the failure', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth0') });
    const two = `<interfaces xmlns="${IF}" xmlns:nc="${NC}"><interface nc:operation="create"><name>eth2</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type></interface><interface nc:operation="create"><name>eth0</name></interface></interfaces>`;
    await rpcError(c.editConfig({ target: 'running', config: two, errorOption: 'rollback-on-error' }));
    const data = await c.getConfig({ source: 'running' });
    expect(data).not.toContain('eth2');
  });

  test('continue-on-error applies the good edits and reports every failure', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth0') });
    const edits = `<interfaces xmlns="${IF}" xmlns:nc="${NC}"><interface nc:operation="create"><name>eth0</name></interface><interface nc:operation="create"><name>eth3</name><type xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type">ianaift:ethernetCsmacd</type></interface><interface nc:operation="delete"><name>none</name></interface></interfaces>`;
    const e = await rpcError(
      c.editConfig({ target: 'running', config: edits, errorOption: 'continue-on-error' }),
    );
    expect(e.errors.map((x) => x.errorTag)).toEqual(['data-exists', 'data-missing']);
    expect(await c.getConfig({ source: 'running' })).toContain('eth3');
  });

  test('a mandatory leaf left out fails validation and leaves running unchanged', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcError(
      c.editConfig({
        target: 'running',
        config: `<interfaces xmlns="${IF}"><interface><name>eth9</name></interface></interfaces>`,
      }),
    );
    expect(e.errors[0]!.errorTag).toBe('missing-element');
    expect(await c.getConfig({ source: 'running' })).not.toContain('eth9');
  });
});

describe('edit-config ancestors', () => {
  test('a delete under a missing container fails with data-missing and creates nothing', async () => {
    server = await testServer();
    const c = await client(server);
    const e = await rpcError(c.editConfig({ target: 'running', config: iface('gone', '', 'delete') }));
    expect(e.errors[0]!.errorTag).toBe('data-missing');
    expect(await c.getConfig({ source: 'running' })).not.toContain('interfaces');
  });

  test('a remove under a missing container succeeds and creates nothing', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('gone', '', 'remove') });
    expect(await c.getConfig({ source: 'running' })).not.toContain('interfaces');
  });

  test('default-operation none changes nothing but what carries an operation', async () => {
    server = await testServer();
    const c = await client(server);
    await c.editConfig({ target: 'running', config: iface('eth0', '<description>a</description>') });
    await c.editConfig({
      target: 'running',
      defaultOperation: 'none',
      config: `<interfaces xmlns="${IF}" xmlns:nc="${NC}"><interface><name>eth0</name><description>ignored</description><enabled nc:operation="merge">false</enabled></interface></interfaces>`,
    });
    const data = await c.getConfig({ source: 'running' });
    expect(data).toContain('<description>a</description>');
    expect(data).toContain('<enabled>false</enabled>');
  });
});
