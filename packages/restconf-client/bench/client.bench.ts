import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readXmlDocument } from '@yangkit/xml';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { RestconfClient } from '../src/client.js';
import { parseErrorBody } from '../src/error-body.js';
import { decodeNotification } from '../src/notification.js';

/**
 * What the client adds over the bare building blocks, each against a baseline in the same run:
 * a GET through RestconfClient (api-path and query formatting, header building, bounded body
 * read, JSON decoding) against a bare `fetch` + `response.json()` of the same URL on a loopback
 * node:http server; error-body and notification decoding against a bare JSON.parse / XML read.
 */

const options = { time: 1000, warmupTime: 200 };
const library = {
  'example-jukebox:library': {
    artist: Array.from({ length: 20 }, (_, i) => ({
      name: `Artist ${i}`,
      album: [{ name: 'A', year: 2000 + i }],
    })),
  },
};
const payload = JSON.stringify(library);
let server: http.Server;
let base = '';
let client: RestconfClient;
let sink = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/yang-data+json' });
    res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new RestconfClient({ baseUrl: base, root: '/restconf' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('GET of a 20-artist library over loopback HTTP', () => {
  bench(
    'baseline: fetch + response.json()',
    async () => {
      const response = await fetch(`${base}/restconf/data/example-jukebox:jukebox/library?depth=3`, {
        headers: { accept: 'application/yang-data+json' },
      });
      sink += Object.keys((await response.json()) as object).length;
    },
    options,
  );
  bench(
    'RestconfClient.get',
    async () => {
      const response = await client.get('/example-jukebox:jukebox/library', { depth: 3 });
      sink += response.status;
    },
    options,
  );
});

const errorJson = JSON.stringify({
  'ietf-restconf:errors': {
    error: [
      {
        'error-type': 'application',
        'error-tag': 'data-missing',
        'error-app-tag': 'instance-required',
        'error-path': '/example-jukebox:jukebox/playlist[name="x"]/song[index="1"]/id',
        'error-message': 'required instance is missing',
        'error-info': { 'bad-value': 'abc', 'error-number': 370 },
      },
    ],
  },
});
const errorXml =
  '<errors xmlns="urn:ietf:params:xml:ns:yang:ietf-restconf"><error><error-type>application</error-type>' +
  '<error-tag>data-missing</error-tag><error-app-tag>instance-required</error-app-tag>' +
  '<error-path>/jbox:jukebox/jbox:playlist</error-path><error-message>required instance is missing</error-message>' +
  '<error-info><bad-value>abc</bad-value><error-number>370</error-number></error-info></error></errors>';

describe('decoding a JSON error body', () => {
  bench('baseline: JSON.parse', () => void (sink += Object.keys(JSON.parse(errorJson)).length), options);
  bench(
    'parseErrorBody',
    () => void (sink += parseErrorBody(errorJson, 'application/yang-data+json').length),
    options,
  );
});

describe('decoding an XML error body', () => {
  bench(
    'baseline: @yangkit/xml readXmlDocument',
    () => void (sink += readXmlDocument(errorXml).children.length),
    options,
  );
  bench(
    'parseErrorBody',
    () => void (sink += parseErrorBody(errorXml, 'application/yang-data+xml').length),
    options,
  );
});

const notification = JSON.stringify({
  'ietf-restconf:notification': {
    eventTime: '2026-11-22T02:00:00Z',
    'ietf-netconf-notifications:netconf-config-change': {
      'changed-by': { username: 'admin', 'session-id': 4 },
      datastore: 'running',
      edit: [{ target: '/example-jukebox:jukebox', operation: 'merge' }],
    },
  },
});

describe('decoding a JSON notification', () => {
  bench('baseline: JSON.parse', () => void (sink += Object.keys(JSON.parse(notification)).length), options);
  bench(
    'decodeNotification',
    () => void (sink += decodeNotification(notification, '1').event.length),
    options,
  );
});
