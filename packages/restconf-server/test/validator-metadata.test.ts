import type { InstanceTree } from '@yangkit/yang-json-codec';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RequestContext } from '../src/context.js';
import { annotateValidators } from '../src/validator-metadata.js';
import { type Gateway, startGateway } from './harness.js';

const MD = 'yangkit-restconf-metadata';
const PLAYER = '/restconf/data/example-jukebox:jukebox/player';
let gw: Gateway;

/** A gateway whose player has a gap of 0.5. */
async function withPlayer(options: Parameters<typeof startGateway>[0]): Promise<Gateway> {
  const g = await startGateway(options);
  const r = await g.fetch(PLAYER, {
    method: 'PUT',
    headers: { 'content-type': 'application/yang-data+json' },
    body: JSON.stringify({ 'example-jukebox:player': { gap: '0.5' } }),
  });
  expect(r.status).toBe(201);
  return g;
}

beforeAll(async () => {
  gw = await withPlayer({ withNmda: true });
});
afterAll(() => gw.close());

/** The annotations of the player container in a JSON answer. */
async function playerAnnotations(r: Response): Promise<Record<string, string> | undefined> {
  const body = (await r.json()) as { 'example-jukebox:player': { '@'?: Record<string, string> } };
  return body['example-jukebox:player']['@'];
}

/** yang:date-and-time of an HTTP date. */
const dateAndTime = (httpDate: string | null) => new Date(httpDate ?? '').toISOString().replace('.000Z', 'Z');

describe('with-etag and with-last-modified', () => {
  test('annotate the target in JSON with the values of its ETag and Last-Modified', async () => {
    const r = await gw.fetch(`${PLAYER}?with-etag&with-last-modified`);
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body).toEqual({
      'example-jukebox:player': {
        '@': {
          [`${MD}:etag`]: r.headers.get('etag'),
          [`${MD}:last-modified`]: dateAndTime(r.headers.get('last-modified')),
        },
        gap: '0.5',
      },
    });
  });

  test('annotate a leaf target in XML as attributes in the module namespace', async () => {
    const r = await gw.fetch(`${PLAYER}/gap?with-etag`, { headers: { accept: 'application/yang-data+xml' } });
    const xml = await r.text();
    const etag = r.headers.get('etag')?.replaceAll('"', '&quot;');
    expect(xml).toBe(
      `<gap xmlns="http://example.com/ns/example-jukebox" xmlns:ykmd="urn:yangkit:params:xml:ns:yang:${MD}" ykmd:etag="${etag}">0.5</gap>`,
    );
  });

  test('annotate each top-level node of a datastore read', async () => {
    const r = await gw.fetch('/restconf/data?with-etag');
    const body = (await r.json()) as {
      'ietf-restconf:data': Record<string, { '@'?: Record<string, string> }>;
    };
    const jukebox = body['ietf-restconf:data']['example-jukebox:jukebox'];
    expect(jukebox?.['@']?.[`${MD}:etag`]).toBe(r.headers.get('etag'));
  });

  test('follow an edit: the annotation and the header move together', async () => {
    const before = await playerAnnotations(await gw.fetch(`${PLAYER}?with-etag`));
    await gw.fetch(`${PLAYER}/gap`, {
      method: 'PUT',
      headers: { 'content-type': 'application/yang-data+json' },
      body: JSON.stringify({ 'example-jukebox:gap': '0.7' }),
    });
    const r = await gw.fetch(`${PLAYER}?with-etag`);
    const after = await playerAnnotations(r);
    expect(after?.[`${MD}:etag`]).not.toBe(before?.[`${MD}:etag`]);
    expect(after?.[`${MD}:etag`]).toBe(r.headers.get('etag'));
  });

  test('on /ds, only where the ETag header is sent (running, intended)', async () => {
    const running = await gw.fetch(
      `/restconf/ds/ietf-datastores:running/example-jukebox:jukebox/player?with-etag`,
    );
    expect((await playerAnnotations(running))?.[`${MD}:etag`]).toBe(running.headers.get('etag'));
    const operational = await gw.fetch(
      `/restconf/ds/ietf-datastores:operational/example-jukebox:jukebox/player?with-etag`,
    );
    expect(operational.headers.get('etag')).toBeNull();
    expect(await playerAnnotations(operational)).toBeUndefined();
  });

  test('with-owners adds nothing: no owners are recorded', async () => {
    const r = await gw.fetch(`${PLAYER}?with-owners`);
    expect(await r.json()).toEqual({ 'example-jukebox:player': { gap: '0.7' } });
  });
});

describe('with-etag and with-last-modified without JSON metadata (--with-json-metadata=false)', () => {
  let plain: Gateway;
  beforeAll(async () => {
    plain = await withPlayer({ withJsonMetadata: false });
  });
  afterAll(() => plain.close());

  test('add no annotation to JSON; the header fields still carry both values', async () => {
    const r = await plain.fetch(`${PLAYER}?with-etag&with-last-modified`, {
      headers: { accept: 'application/yang-data+json' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toMatch(/^"/);
    expect(r.headers.get('last-modified')).not.toBeNull();
    expect(await r.text()).not.toContain(MD);
  });

  test('still annotate XML', async () => {
    const r = await plain.fetch(`${PLAYER}?with-etag`, {
      headers: { accept: 'application/yang-data+xml' },
    });
    expect(await r.text()).toContain('ykmd:etag=');
  });
});

describe('annotateValidators', () => {
  test('refuses with-etag when the schema lacks the annotations module, naming it', () => {
    const ctx = {
      query: { withEtag: true },
      settings: { schema: { annotations: new Map() }, withYangMetadata: true },
    } as unknown as RequestContext;
    expect(() => annotateValidators(ctx, { children: new Map() } as unknown as InstanceTree, true)).toThrow(
      /need the module yangkit-restconf-metadata/,
    );
  });
});
