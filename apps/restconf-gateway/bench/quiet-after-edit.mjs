// What a big edit leaves once the gateway is quiet: starts the gateway (embedded backend) in this
// process, PUTs a jukebox of N artists with one album each, then sends nothing and prints, every
// 5 s, the resident size, V8's heap and the longest the event loop has waited since the PUT (the
// pause of the collection once quiet, if it runs, and of V8's own collections). Run it with the
// command's Node flags, and once with the collection off to compare (after `pnpm build`):
//   node --max-semi-space-size=4 bench/quiet-after-edit.mjs [ARTISTS [SECONDS [--idle-collection=false]]]
//   (default 100000 artists, 30 s)
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { optionsFromArgs, startGateway } from '../dist/index.js';

const artists = Number(process.argv[2] ?? 100_000);
const seconds = Number(process.argv[3] ?? 30);
const collection = process.argv[4] ?? '--idle-collection=true';

const { options } = optionsFromArgs(['--port=0', '--initial-data=', '--log-level=error', collection]);
const gateway = await startGateway({ ...options, maxBodyBytes: 256 * 2 ** 20, maxBodyNodes: 10_000_000 });

const artist = [];
for (let i = 0; i < artists; i++)
  artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
const put = await fetch(`${gateway.url}/restconf/data/example-jukebox:jukebox`, {
  method: 'PUT',
  headers: { 'content-type': 'application/yang-data+json' },
  body: JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } }),
});
if (put.status !== 201 && put.status !== 204) throw new Error(`PUT answered ${put.status}`);
artist.length = 0;

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const mb = (bytes) => (bytes / 2 ** 20).toFixed(0);
for (let t = 0; t <= seconds; t += 5) {
  const m = process.memoryUsage();
  console.log(
    `${collection} ${artists} artists, ${String(t).padStart(3)} s after the PUT: RSS ${mb(m.rss)} MB, heap ${mb(m.heapTotal)} MB (${mb(m.heapUsed)} MB in use), longest wait ${(delay.max / 1e6).toFixed(0)} ms`,
  );
  if (t < seconds) await new Promise((resolve) => setTimeout(resolve, 5000));
}
await gateway.close();
