import { describe, expect, test } from 'vitest';
import { compileSchema } from '../src/index';
import { parseShared } from './helpers';

const tree = compileSchema(
  [
    parseShared('examples/example-jukebox@2016-08-15.yang'),
    parseShared('examples/example-ops@2016-07-07.yang'),
    parseShared('examples/example-actions@2016-07-07.yang'),
    parseShared('examples/example-mod@2016-07-07.yang'),
    parseShared('corpus/ietf/ietf-yang-types@2013-07-15.yang'),
  ],
  { implemented: ['example-jukebox', 'example-ops', 'example-actions', 'example-mod'] },
);

describe('RFC 8040 example modules', () => {
  test('finds the jukebox artist list by its module-qualified path', () => {
    const artist = tree.find('/example-jukebox:jukebox/library/artist');
    expect(artist?.kind).toBe('list');
    expect(artist?.keys).toEqual(['name']);
    expect(artist?.keyNodes[0]?.isKey).toBe(true);
  });

  test('marks the library counters as state data', () => {
    expect(tree.find('/example-jukebox:jukebox/library/artist-count')?.config).toBe(false);
    expect(tree.find('/example-jukebox:jukebox/library/artist')?.config).toBe(true);
  });

  test('resolves the album genre identityref base to a qualified identity name', () => {
    const genre = tree.find('/example-jukebox:jukebox/library/artist/album/genre');
    expect(genre?.type?.base).toBe('identityref');
    expect(genre?.type?.identityBases).toEqual(['example-jukebox:genre']);
    expect(tree.isDerivedFrom('example-jukebox:rock', 'example-jukebox:genre')).toBe(true);
  });

  test('keeps decimal64 fraction-digits and range of the player gap', () => {
    const gap = tree.find('/example-jukebox:jukebox/player/gap');
    expect(gap?.type?.fractionDigits).toBe(1);
    expect(gap?.type?.range?.intervals).toEqual([{ min: 0n, max: 20n }]);
    expect(gap?.units).toBe('tenths of seconds');
  });

  test('gives every rpc an input and an output', () => {
    const play = tree.topLevel('example-jukebox', 'play');
    expect(play?.children.map((c) => c.kind)).toEqual(['input', 'output']);
    expect(tree.rpcs().map((r) => r.name)).toEqual(['play', 'reboot', 'get-reboot-info']);
  });

  test('puts actions under their list and notifications at the top level', () => {
    const reset = tree.find('/example-actions:interfaces/interface/reset');
    expect(reset?.kind).toBe('action');
    expect(reset?.isOperation).toBe(true);
    expect(tree.notifications().map((n) => n.dataPath)).toEqual(['/example-mod:event']);
  });

  test('writes the data path with the module name on the first step only', () => {
    const delay = tree.find('/example-ops:reboot/input/delay');
    expect(delay?.dataPath).toBe('/example-ops:reboot/input/delay');
    expect(delay?.schemaPath).toBe('/ops:reboot/ops:input/ops:delay');
    expect(delay?.default).toBe('0');
  });

  test('freezes compiled nodes', () => {
    const jukebox = tree.topLevel('example-jukebox', 'jukebox');
    expect(Object.isFrozen(jukebox)).toBe(true);
    expect(Object.isFrozen(jukebox?.children)).toBe(true);
  });

  test('freezes node types and their restrictions', () => {
    const gap = tree.find('/example-jukebox:jukebox/player/gap');
    expect(Object.isFrozen(gap?.type)).toBe(true);
    expect(Object.isFrozen(gap?.type?.range?.intervals)).toBe(true);
    expect(Object.isFrozen(gap?.must)).toBe(true);
  });

  test('maps namespaces to modules and back', () => {
    const m = tree.moduleByNamespace('http://example.com/ns/example-jukebox');
    expect(m?.name).toBe('example-jukebox');
    expect(m?.implemented).toBe(true);
    expect(tree.moduleByName('ietf-yang-types')?.implemented).toBe(false);
  });
});
