import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATA_JSON, DATA_XML, type Server, sendJson, sendXml, startServer } from './harness.js';

// RFC 6241 section 7.1: <filter type="subtree"> and <filter type="xpath" select="..."> of the
// ietf-netconf get and get-config operations, invoked over RESTCONF (RFC 8040 section 3.6).
const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const JB = 'http://example.com/ns/example-jukebox';
const PLAYER_XML = `<data><jukebox xmlns="${JB}"><player><gap>0.5</gap></player></jukebox></data>`;
let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

function invoke(operation: string, input: string): Promise<Response> {
  return s.fetch(
    `/restconf/operations/ietf-netconf:${operation}`,
    sendXml('POST', input, { Accept: DATA_XML }),
  );
}

describe('NETCONF filter attributes in XML input', () => {
  test('get-config with <filter type="subtree"> answers the selected subtree', async () => {
    const r = await invoke(
      'get-config',
      `<input xmlns="${NC}"><source><running/></source><filter type="subtree"><jukebox xmlns="${JB}"><player/></jukebox></filter></input>`,
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(`<output xmlns="${NC}">${PLAYER_XML}</output>`);
  });

  test('get-config with <filter type="xpath" select> answers the selected data, not empty', async () => {
    const r = await invoke(
      'get-config',
      `<input xmlns="${NC}"><source><running/></source><filter type="xpath" xmlns:jbox="${JB}" select="/jbox:jukebox/jbox:player"/></input>`,
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(`<output xmlns="${NC}">${PLAYER_XML}</output>`);
  });

  test('get with <filter type="xpath" select> answers the selected data', async () => {
    const r = await invoke(
      'get',
      `<input xmlns="${NC}"><filter type="xpath" xmlns:jbox="${JB}" select="/jbox:jukebox/jbox:player"/></input>`,
    );
    expect(r.status).toBe(200);
    expect(await r.text()).toBe(`<output xmlns="${NC}">${PLAYER_XML}</output>`);
  });
});

describe('NETCONF filter attributes in JSON input', () => {
  test('get-config with @filter type xpath and select answers the selected data, not empty', async () => {
    const input = {
      'ietf-netconf:input': {
        source: { running: [null] },
        filter: {},
        '@filter': {
          'ietf-netconf:type': 'xpath',
          'ietf-netconf:select': '/example-jukebox:jukebox/example-jukebox:player',
        },
      },
    };
    const r = await s.fetch(
      '/restconf/operations/ietf-netconf:get-config',
      sendJson('POST', input, { Accept: DATA_JSON }),
    );
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      'ietf-netconf:output': { data: { 'example-jukebox:jukebox': { player: { gap: '0.5' } } } },
    });
  });
});
