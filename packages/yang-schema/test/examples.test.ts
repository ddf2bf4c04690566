import { describe, expect, test } from 'vitest';
import { describeJukebox, exampleYangDir } from '../examples/jukebox';
import { compileFromStrings } from '../examples/paths-and-yang-library';

describe('README examples', () => {
  test('the jukebox example reads keys, identity bases and checks values', async () => {
    const r = await describeJukebox(exampleYangDir);
    expect(r.albumKeys).toEqual(['name']);
    expect(r.genreBases).toEqual(['example-jukebox:genre']);
    expect(r.jazz).toMatchObject({ ok: true, canonical: 'example-jukebox:jazz' });
    expect(r.badYear?.ok).toBe(false);
    expect(r.rpcs).toEqual(['/example-jukebox:play']);
  });

  test('the strings example prints paths and the yang-library modules', () => {
    const r = compileFromStrings();
    expect(r.paths).toBe(
      [
        '/base:system\tcontainer\t-\trw\t-',
        '/base:system/hostname\tleaf\tstring\trw\t-',
        '/base:system/ext:location\tleaf\tstring\trw\t-',
        '',
      ].join('\n'),
    );
    expect(r.location).toBe('urn:ext');
    expect(r.modules).toEqual([
      { name: 'base', revision: '', namespace: 'urn:base', 'conformance-type': 'implement' },
      { name: 'ext', revision: '', namespace: 'urn:ext', 'conformance-type': 'implement' },
    ]);
  });
});
