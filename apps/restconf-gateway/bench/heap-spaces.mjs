// Where the gateway's resident memory goes: starts the gateway (embedded backend) in this process,
// PUTs a jukebox of N artists with one album each, GETs it 20 times, and prints the resident size
// (anonymous memory and pages of files, the node binary's mostly) and V8's heap spaces
// (committed/used MB) after each step: at the start, after 10 s without requests (the collection
// once quiet after the start), after the PUT and the GETs, after 10 s without requests again (at
// rest: the collection once quiet and the shrink of the young generation), and, run with
// --expose-gc, after one more full collection.
//   node [--expose-gc] bench/heap-spaces.mjs [ARTISTS]   (after `pnpm build`; default 10000)
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import { optionsFromArgs, startGateway } from '../dist/index.js';

const artists = Number(process.argv[2] ?? 10_000);
const REST_MS = 10_000;
const { options } = optionsFromArgs(['--port=0', '--initial-data=', '--log-level=error']);
const gateway = await startGateway(options);
const url = `${gateway.url}/restconf/data/example-jukebox:jukebox`;

/** Resident anonymous memory and resident pages of files, in MB (/proc, Linux). */
function resident() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const mb = (name) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return `anonymous ${mb('RssAnon')}, files ${mb('RssFile')}`;
}

function show(label) {
  const spaces = v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_size > 0)
    .map((s) => `${s.space_name.replace('_space', '')} ${s.space_size >> 20}/${s.space_used_size >> 20}`)
    .join(', ');
  const m = process.memoryUsage();
  console.log(
    `${label.padEnd(14)} RSS ${m.rss >> 20} MB (${resident()}), external ${m.external >> 20} MB | ${spaces}`,
  );
}

show('start');
await sleep(REST_MS);
show('start, quiet');
const artist = [];
for (let i = 0; i < artists; i++)
  artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
const body = JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } });
const put = await fetch(url, {
  method: 'PUT',
  headers: { 'content-type': 'application/yang-data+json' },
  body,
});
if (put.status !== 201 && put.status !== 204) throw new Error(`PUT answered ${put.status}`);
show('after the PUT');
for (let i = 0; i < 20; i++)
  await (await fetch(url, { headers: { accept: 'application/yang-data+json' } })).text();
show('after 20 GETs');
await sleep(REST_MS);
show('at rest');
if (typeof globalThis.gc === 'function') {
  globalThis.gc();
  show('after a GC');
}
await gateway.close();
