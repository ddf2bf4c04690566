import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, errorsOf, type Server, sendXml, startServer } from './harness.js';

// RFC 8040 section 7.1: an errors body is encoded as Accept asks, else as the request body was,
// else in the default encoding; the gateway's own answers (401, 413) as the handler's.
const AUTH = { Authorization: `Basic ${Buffer.from('admin:secret').toString('base64')}` };
const RESTCONF_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf';
let s: Server;
beforeAll(async () => {
  s = await startServer({ httpUser: 'admin', httpPassword: 'secret', maxBodyBytes: 1024 });
});
afterAll(() => s.close());

async function expectXmlErrors(r: Response, status: number, errorTag: string): Promise<void> {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe(DATA_XML);
  const body = await r.text();
  expect(body).toContain(`<errors xmlns="${RESTCONF_NS}">`);
  expect(body).toContain(`<error-tag>${errorTag}</error-tag>`);
}

describe('error encoding', () => {
  test('a 401 under Accept yang-data+xml is an XML errors body', async () => {
    const r = await s.fetch('/restconf/data', { headers: { Accept: DATA_XML } });
    await expectXmlErrors(r, 401, 'access-denied');
  });

  test('a 401 of an XML edit without Accept follows the body Content-Type', async () => {
    const r = await s.fetch('/restconf/data', sendXml('POST', '<jukebox xmlns="x"/>'));
    await expectXmlErrors(r, 401, 'access-denied');
  });

  test('a 401 without Accept or a body is JSON, the default', async () => {
    const r = await s.fetch('/restconf/data');
    expect(r.status).toBe(401);
    expect(r.headers.get('content-type')).toBe(DATA_JSON);
  });

  test('a 413 of an XML body without Accept is an XML errors body', async () => {
    const big = `<jukebox xmlns="http://example.com/ns/example-jukebox"><library>${' '.repeat(4096)}</library></jukebox>`;
    const r = await s.fetch('/restconf/data', sendXml('POST', big, AUTH));
    await expectXmlErrors(r, 413, 'too-big');
  });

  test('a 413 under Accept yang-data+xml of a JSON body is an XML errors body', async () => {
    const r = await s.fetch('/restconf/data', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': DATA_JSON, Accept: DATA_XML },
      body: JSON.stringify({ 'example-jukebox:jukebox': { library: {} }, pad: ' '.repeat(4096) }),
    });
    await expectXmlErrors(r, 413, 'too-big');
  });

  test('an edit error of an XML body without Accept is an XML errors body', async () => {
    const r = await s.fetch(
      '/restconf/data',
      sendXml('POST', '<jukebox xmlns="http://example.com/ns/example-jukebox"><nope/></jukebox>', AUTH),
    );
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe(DATA_XML);
    expect(await r.text()).toContain(`<errors xmlns="${RESTCONF_NS}">`);
  });

  test('an edit error of an XML body under Accept yang-data+json is JSON', async () => {
    const r = await s.fetch(
      '/restconf/data',
      sendXml('POST', '<jukebox xmlns="http://example.com/ns/example-jukebox"><nope/></jukebox>', {
        ...AUTH,
        Accept: DATA_JSON,
      }),
    );
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe(DATA_JSON);
  });
});

describe('error details', () => {
  const LIBRARY = '/restconf/data/example-jukebox:jukebox/library';
  beforeAll(async () => {
    await s.fetch('/restconf/data', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:jukebox': { library: {} } }),
    });
  });

  test('a POST of an existing resource is 409 data-exists with the error-path of that resource', async () => {
    const post = () =>
      s.fetch(LIBRARY, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': DATA_JSON },
        body: JSON.stringify({ 'example-jukebox:artist': [{ name: 'Twice' }] }),
      });
    expect((await post()).status).toBe(201);
    const r = await post();
    expect(r.status).toBe(409);
    const [e] = await errorsOf(r);
    expect(e?.['error-tag']).toBe('data-exists');
    expect(e?.['error-path']).toBe("/example-jukebox:jukebox/library/artist[name='Twice']");
  });

  test('a JSON bad-value is the value without the JSON quotes', async () => {
    const r = await s.fetch('/restconf/data/example-jukebox:jukebox/player', {
      method: 'PUT',
      headers: { ...AUTH, 'Content-Type': DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:player': { gap: 'abc' } }),
    });
    expect(r.status).toBe(400);
    const [e] = await errorsOf(r);
    expect(e?.['error-info']).toEqual({ 'bad-value': 'abc' });
  });
});
