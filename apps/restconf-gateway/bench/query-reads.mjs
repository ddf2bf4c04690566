// What a GET with query parameters costs in memory: starts the gateway (embedded backend) in this
// process, PUTs a jukebox of N artists with one album each, then runs each GET below once, reading
// its body as it arrives and dropping it. During each GET the garbage is collected every 25 ms and
// the largest live size seen (V8 heap in use plus memory outside the heap) is kept; it prints that
// peak and the resident size, each as growth over what they were before the GET, and the median
// time of three more runs of the GET without the collections.
// A query that starts with `/` is a path from the RESTCONF root instead (an NMDA datastore: RFC 8527).
// The resident size grows once and stays: give one query to measure its growth alone.
//   node --expose-gc bench/query-reads.mjs [ARTISTS [QUERY...]]   (after `pnpm build`; default 100000, all)
import { optionsFromArgs, startGateway } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const artists = Number(process.argv[2] ?? 100_000);
const OPERATIONAL = '/ds/ietf-datastores:operational/example-jukebox:jukebox';
const ALL = [
  '',
  '?depth=3',
  '?content=config',
  '?fields=library/artist/name',
  '?with-defaults=report-all',
  `${OPERATIONAL}?with-origin`,
];
const QUERIES = process.argv.length > 3 ? process.argv.slice(3) : ALL;

const { options } = optionsFromArgs(['--port=0', '--initial-data=', '--log-level=error', '--with-nmda']);
const gateway = await startGateway({ ...options, maxBodyBytes: 256 * 2 ** 20, maxBodyNodes: 10_000_000 });
const url = `${gateway.url}/restconf/data/example-jukebox:jukebox`;
/** The URL of a query: the jukebox with it, or the path from the RESTCONF root it is. */
const urlOf = (query) => (query.startsWith('/') ? `${gateway.url}/restconf${query}` : url + query);

const artist = [];
for (let i = 0; i < artists; i++)
  artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
const put = await fetch(url, {
  method: 'PUT',
  headers: { 'content-type': 'application/yang-data+json' },
  body: JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } }),
});
if (put.status !== 201 && put.status !== 204) throw new Error(`PUT answered ${put.status}`);
artist.length = 0;

const live = () => {
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

/** Runs the GET, reading its body as it comes; its status, size and time. */
async function get(query) {
  const start = performance.now();
  const res = await fetch(urlOf(query), { headers: { accept: 'application/yang-data+json' } });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  return { status: res.status, bytes, ms: performance.now() - start };
}

for (const query of QUERIES) {
  const before = live();
  const rss = process.memoryUsage().rss;
  let peak = before;
  let peakRss = rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, live());
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 25);
  const { status, bytes } = await get(query);
  clearInterval(sampler);
  const times = [];
  for (let i = 0; i < 3; i++) times.push((await get(query)).ms);
  const ms = times.sort((a, b) => a - b)[1];
  console.log(
    `GET${(query || ' (whole jukebox)').padEnd(28)} ${status} ${mb(bytes).padStart(5)} MB in ${ms.toFixed(0).padStart(5)} ms | live peak +${mb(peak - before)} MB | RSS +${mb(peakRss - rss)} MB`,
  );
}
await gateway.close();
