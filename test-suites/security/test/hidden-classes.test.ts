import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type GatewayProcess, spawnGateway } from './process.js';

/*
 * A request that makes V8 a new hidden class (a map) keeps all of its garbage alive past the minor
 * collections: maps live in the old generation until a full collection, and what a dead one reaches
 * (through a generator closure's objects, a spread copy) is kept by it. A leaf GET's garbage was all
 * promoted that way, at three fifths of today's throughput and three times its p99. The gateway runs
 * as a process with V8's `--log-maps`, and the maps made while each kind of request runs are counted.
 */

const JUKEBOX = '/restconf/data/example-jukebox:jukebox';
const DATA_JSON = 'application/yang-data+json';
/** Requests of each kind before the count, for the JIT and the caches to settle. */
const WARM_UP = 100;
/** Requests of each kind counted. */
const COUNTED = 200;
/**
 * Maps made while they run, at most: a fourth of the requests (a new connection's streams make some),
 * where a map made per request is one or more for each (three for each GET before).
 */
const MAX_MAPS = 50;

let gateway: GatewayProcess | undefined;
let url = '';
let logFile = '';
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-maps-'));
  logFile = path.join(dir, 'v8.log');
  gateway = await spawnGateway(['--initial-data='], {
    nodeFlags: ['--log-maps', `--logfile=${logFile}`, '--no-logfile-per-isolate'],
  });
  url = gateway.url;
  const artists = Array.from({ length: 100 }, (_, i) => ({ name: `artist-${i}` }));
  const put = await fetch(url + JUKEBOX, {
    method: 'PUT',
    headers: { 'Content-Type': DATA_JSON },
    body: JSON.stringify({
      'example-jukebox:jukebox': { library: { artist: artists }, player: { gap: '0.5' } },
    }),
  });
  expect(put.status).toBe(201);
}, 60_000);

afterAll(async () => {
  gateway?.child.kill();
  await gateway?.exited;
  rmSync(dir, { recursive: true, force: true });
});

/** One request; throws unless it is answered with `status`. */
async function send(pathname: string, init: RequestInit, status: number): Promise<void> {
  const r = await fetch(url + pathname, init);
  await r.arrayBuffer();
  if (r.status !== status) throw new Error(`${init.method ?? 'GET'} ${pathname}: ${r.status}, not ${status}`);
}

/** The map events V8 logged while `requests` ran `COUNTED` times, after `WARM_UP` runs. */
async function mapsMade(requests: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await requests(i);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const from = statSync(logFile).size;
  for (let i = WARM_UP; i < WARM_UP + COUNTED; i++) await requests(i);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const logged = readFileSync(logFile).subarray(from).toString('utf8');
  return logged.split('\n').filter((line) => line.startsWith('map,')).length;
}

const gap = (i: number) => (i % 2 === 0 ? '0.5' : '1.0');

/** A PUT or PATCH of the player's gap, of one value then the other, so that each changes it. */
const gapEdit = (method: 'PUT' | 'PATCH') => (i: number) =>
  send(
    `${JUKEBOX}/player/gap`,
    {
      method,
      headers: { 'Content-Type': DATA_JSON },
      body: JSON.stringify({ 'example-jukebox:gap': gap(i) }),
    },
    204,
  );

describe('requests once warm make V8 no hidden class', () => {
  test.each([
    [
      'a GET of a leaf in JSON',
      (_i: number) => send(`${JUKEBOX}/player/gap`, { headers: { Accept: DATA_JSON } }, 200),
    ],
    [
      'a GET of a leaf in XML',
      (_i: number) =>
        send(`${JUKEBOX}/player/gap`, { headers: { Accept: 'application/yang-data+xml' } }, 200),
    ],
    [
      'a GET of a list entry with depth',
      (i: number) => send(`${JUKEBOX}/library/artist=artist-${i % 100}?depth=2`, {}, 200),
    ],
    ['a PUT of a leaf', gapEdit('PUT')],
    ['a PATCH of a leaf', gapEdit('PATCH')],
    [
      'a YANG Patch',
      (i: number) =>
        send(
          JUKEBOX,
          {
            method: 'PATCH',
            headers: { 'Content-Type': 'application/yang-patch+json', Accept: DATA_JSON },
            body: JSON.stringify({
              'ietf-yang-patch:yang-patch': {
                'patch-id': `p${i}`,
                edit: [
                  {
                    'edit-id': 'e1',
                    operation: 'merge',
                    target: '/player',
                    value: { 'example-jukebox:player': { gap: gap(i) } },
                  },
                ],
              },
            }),
          },
          200,
        ),
    ],
    [
      'a POST of a playlist, then its DELETE',
      async (i: number) => {
        await send(
          JUKEBOX,
          {
            method: 'POST',
            headers: { 'Content-Type': DATA_JSON },
            body: JSON.stringify({ 'example-jukebox:playlist': [{ name: `p${i}` }] }),
          },
          201,
        );
        await send(`${JUKEBOX}/playlist=p${i}`, { method: 'DELETE' }, 204);
      },
    ],
  ])(
    '%s',
    async (_what, requests) => {
      expect(await mapsMade(requests)).toBeLessThanOrEqual(MAX_MAPS);
    },
    60_000,
  );
});
