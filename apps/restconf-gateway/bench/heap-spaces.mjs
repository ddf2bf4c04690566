// Where the gateway's resident memory goes: starts the gateway (embedded backend) in this process,
// PUTs a jukebox of N artists with one album each, GETs it 20 times, and prints the resident size
// and V8's heap spaces (committed/used MB) after each step and after a full collection.
//   node --expose-gc bench/heap-spaces.mjs [ARTISTS]   (after `pnpm build`; default 10000)
import v8 from 'node:v8';
import { optionsFromArgs, startGateway } from '../dist/index.js';

const artists = Number(process.argv[2] ?? 10_000);
const { options } = optionsFromArgs(['--port=0', '--initial-data=', '--log-level=error']);
const gateway = await startGateway(options);
const url = `${gateway.url}/restconf/data/example-jukebox:jukebox`;

function show(label) {
  const spaces = v8
    .getHeapSpaceStatistics()
    .filter((s) => s.space_size > 0)
    .map((s) => `${s.space_name.replace('_space', '')} ${s.space_size >> 20}/${s.space_used_size >> 20}`)
    .join(', ');
  console.log(`${label.padEnd(14)} RSS ${process.memoryUsage().rss >> 20} MB | ${spaces}`);
}

show('start');
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
if (typeof globalThis.gc === 'function') {
  globalThis.gc();
  show('after a GC');
}
await gateway.close();
