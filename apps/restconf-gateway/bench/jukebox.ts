/** The media type of every request and answer of the benchmarks. */
export const JSON_DATA = 'application/yang-data+json';
/** The jukebox container: loaded with one PUT, read whole. */
export const JUKEBOX = '/restconf/data/example-jukebox:jukebox';

/** The JSON body of a PUT of the jukebox with `artists` artists of one album each. */
export function jukebox(artists: number): string {
  const artist = [];
  for (let i = 0; i < artists; i++)
    artist.push({ name: `artist-${i}`, album: [{ name: `album-${i}`, year: 2000 + (i % 20) }] });
  return JSON.stringify({ 'example-jukebox:jukebox': { library: { artist }, player: { gap: '0.5' } } });
}
