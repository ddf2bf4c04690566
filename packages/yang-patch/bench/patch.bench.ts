import path from 'node:path';
import { decodeJson, decodeXml, encodeXml } from '@yangkit/yang-json-codec';
import { loadSchema } from '@yangkit/yang-schema';
import { bench, describe } from 'vitest';
import {
  applyPlan,
  encodeStatusJson,
  parseYangPatch,
  planPatch,
  statusOfResult,
  toEditConfig,
} from '../src/index.js';

const SHARED_YANG = path.resolve(__dirname, '../../../yang');
const schema = await loadSchema({
  paths: [SHARED_YANG],
  modules: ['example-jukebox', 'ietf-yang-patch', 'ietf-restconf'],
});

const ALBUM = '/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light';
const N = 100;
/** 100 songs, the payload of the patch and of the baselines. */
const SONGS = Array.from({ length: N }, (_, i) => ({
  name: `Song ${i}`,
  location: `/media/song-${i}.mp3`,
  format: 'MP3',
  length: 200 + i,
}));
/** A patch of 100 create edits, one song each (RFC 8072 appendix A.1.2 scaled up). */
const PATCH_JSON = JSON.stringify({
  'ietf-yang-patch:yang-patch': {
    'patch-id': 'bench',
    edit: SONGS.map((s, i) => ({
      'edit-id': `edit${i}`,
      operation: 'create',
      target: `/song=${encodeURIComponent(s.name)}`,
      value: { 'example-jukebox:song': [s] },
    })),
  },
});
/** The same 100 songs as one plain data resource (what a plain PATCH would carry). */
const RESOURCE_JSON = JSON.stringify({ 'example-jukebox:song': SONGS });
const ALBUM_NODE = schema.find('/example-jukebox:jukebox/library/artist/album')!;
const RESOURCE_XML = encodeXml(decodeJson(schema, RESOURCE_JSON, { kind: 'resource', parent: ALBUM_NODE }));
const PATCH_XML = `<yang-patch xmlns="urn:ietf:params:xml:ns:yang:ietf-yang-patch"><patch-id>bench</patch-id>${SONGS.map(
  (s, i) =>
    `<edit><edit-id>edit${i}</edit-id><operation>create</operation><target>/song=${encodeURIComponent(s.name)}</target><value><song xmlns="http://example.com/ns/example-jukebox"><name>${s.name}</name><location>${s.location}</location><format>MP3</format><length>${s.length}</length></song></value></edit>`,
).join('')}</yang-patch>`;
const DATASTORE = decodeJson(
  schema,
  {
    'example-jukebox:jukebox': {
      library: { artist: [{ name: 'Foo Fighters', album: [{ name: 'Wasting Light' }] }] },
    },
  },
  { kind: 'config' },
);
const PLAN = planPatch(parseYangPatch(schema, PATCH_JSON, { encoding: 'json', target: ALBUM }));
/** Longer runs than the default keep the ratios steady on a busy machine. */
const OPTIONS = { time: 2000, warmupTime: 500 };

describe('parsing 100 create edits', () => {
  bench(
    'baseline: decodeJson of the 100 songs as one resource',
    () => {
      decodeJson(schema, RESOURCE_JSON, { kind: 'resource', parent: ALBUM_NODE });
    },
    OPTIONS,
  );
  bench(
    'parseYangPatch (JSON)',
    () => {
      parseYangPatch(schema, PATCH_JSON, { encoding: 'json', target: ALBUM });
    },
    OPTIONS,
  );
  bench(
    'baseline: decodeXml of the 100 songs as one resource',
    () => {
      decodeXml(schema, RESOURCE_XML, { kind: 'resource', parent: ALBUM_NODE });
    },
    OPTIONS,
  );
  bench(
    'parseYangPatch (XML)',
    () => {
      parseYangPatch(schema, PATCH_XML, { encoding: 'xml', target: ALBUM });
    },
    OPTIONS,
  );
});

describe('carrying out 100 create edits', () => {
  bench(
    'baseline: decodeJson of the 100 songs as one resource',
    () => {
      decodeJson(schema, RESOURCE_JSON, { kind: 'resource', parent: ALBUM_NODE });
    },
    OPTIONS,
  );
  bench(
    'applyPlan + yang-patch-status',
    () => {
      encodeStatusJson(statusOfResult('bench', applyPlan(DATASTORE, PLAN)));
    },
    OPTIONS,
  );
  bench(
    'toEditConfig (one combined document)',
    () => {
      toEditConfig(schema, PLAN);
    },
    OPTIONS,
  );
});
