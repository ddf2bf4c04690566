import path from 'node:path';
import { checkValue, loadSchema } from '@yangkit/yang-schema';

/** Compiles the RFC 8040 example-jukebox module from a folder and reads a few facts from the tree. */
export async function describeJukebox(yangDir: string) {
  const tree = await loadSchema({ paths: [yangDir], modules: ['example-jukebox'] });

  const album = tree.find('/example-jukebox:jukebox/library/artist/album');
  const genre = album?.dataChild('example-jukebox', 'genre');
  const year = tree.find('/example-jukebox:jukebox/library/artist/album/year');

  return {
    albumKeys: album?.keys, // ['name']
    genreBases: genre?.type?.identityBases, // ['example-jukebox:genre']
    // identityref values in RFC 7951 JSON form: module name as prefix
    jazz: genre?.type && checkValue(genre.type, 'example-jukebox:jazz', tree.valueContext()),
    badYear: year?.type && checkValue(year.type, '-3'),
    rpcs: tree.rpcs().map((r) => r.dataPath), // ['/example-jukebox:play']
  };
}

/** The repository's folder of the RFC 8040 example modules, relative to this file. */
export const exampleYangDir = path.resolve(__dirname, '../../../yang/examples');
