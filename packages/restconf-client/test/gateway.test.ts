import { type Gateway, startGateway } from '@yangkit/restconf-gateway';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RestconfClient, RestconfResponseError } from '../src/index.js';

// The real app: restconf-gateway with its embedded NETCONF server and the RFC 8040 examples.
let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ port: 0, logLevel: 'silent' });
});
afterAll(() => gateway?.close());

const LIBRARY = '/example-jukebox:jukebox/library';

describe.each(['json', 'xml'] as const)('against restconf-gateway in %s', (encoding) => {
  const client = () => new RestconfClient({ baseUrl: gateway.url, encoding });
  const artist = (name: string) =>
    encoding === 'json'
      ? { 'example-jukebox:artist': [{ name }] }
      : `<artist xmlns="http://example.com/ns/example-jukebox"><name>${name}</name></artist>`;

  test('discovers the root and reads the library', async () => {
    const c = client();
    expect(await c.root()).toBe(gateway.root);
    const response = await c.get(`${LIBRARY}/artist=Foo%20Fighters`, { depth: 2 });
    expect(response.status).toBe(200);
    expect(response.text).toContain('Foo Fighters');
  });

  test('creates, replaces, merges and deletes an entry', async () => {
    const c = client();
    const name = `Band ${encoding}`;
    const path = `${LIBRARY}/artist=Band%20${encoding}`;
    expect((await c.create(LIBRARY, artist(name))).status).toBe(201);
    await c.replace(path, artist(name));
    await c.merge(path, artist(name));
    expect((await c.delete(path)).status).toBe(204);
    expect((await c.remove(path)).status).toBe(404);
  });

  test('raises the server errors entries on a duplicate create', async () => {
    const error = await client()
      .create(LIBRARY, artist('Foo Fighters'))
      .catch((e: unknown) => e);
    expect(RestconfResponseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, errorTag: 'data-exists' });
  });
});

describe('against restconf-gateway', () => {
  const client = () => new RestconfClient({ baseUrl: gateway.url });

  test('honours a conditional GET with the entity-tag it got', async () => {
    const c = client();
    const first = await c.get(LIBRARY);
    expect(first.etag).toBeDefined();
    const second = await c.get(LIBRARY, { ifNoneMatch: first.etag as string });
    expect(second.status).toBe(304);
  });

  test('reads the yang-library-version and a schema', async () => {
    const c = client();
    expect(await c.yangLibraryVersion()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await c.schema('example-jukebox')).toContain('module example-jukebox');
  });

  test('reports the 404 of a stream the app does not offer as a RestconfResponseError', async () => {
    const events = client().subscribe('NETCONF', { reconnect: false });
    const error = await events.next().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, errorTag: 'invalid-value' });
    expect(RestconfResponseError.isInstance(error)).toBe(true);
  });
});
