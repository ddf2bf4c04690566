import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  appendChild,
  checkSchemaPaths,
  compileXPath,
  createEvaluationCache,
  createXmlNavigator,
  parseXmlForXPath,
  parseXPath,
  type QualifiedName,
  type SchemaNavigator,
  type XmlNode,
  xmlElement,
  xmlNavigator,
} from '../src/index.js';

// must/when/leafref examples on the example-jukebox module of RFC 8040 appendix A.1
const JBOX = 'http://example.com/ns/example-jukebox';
const prefixes = { jbox: JBOX };
const yangFile = path.resolve(__dirname, '../../../yang/examples/example-jukebox@2016-08-15.yang');
const xml = readFileSync(path.resolve(__dirname, 'fixtures/jukebox/data.xml'), 'utf8');

const GENRES: Record<string, string | undefined> = {
  genre: undefined,
  alternative: 'genre',
  blues: 'genre',
  country: 'genre',
  jazz: 'genre',
  pop: 'genre',
  rock: 'genre',
};

function isDerivedFrom(value: string, base: QualifiedName, orSelf: boolean): boolean {
  if (base.namespace !== JBOX) return false;
  let id =
    GENRES[value.replace(/^jbox:/, '')] === undefined && !orSelf ? undefined : value.replace(/^jbox:/, '');
  if (!orSelf && id !== undefined) id = GENRES[id];
  for (; id !== undefined; id = GENRES[id]) if (id === base.name) return true;
  return false;
}

// type information as a compiled schema would give it
const nav = createXmlNavigator({
  schemaInfo(node) {
    if (node.name === 'genre') return { baseType: 'identityref', isDerivedFrom };
    if (node.name === 'id' && node.parent?.name === 'song') {
      return { baseType: 'instance-identifier', instanceIdentifierPrefixes: new Map([['jbox', JBOX]]) };
    }
    return { baseType: 'string' };
  },
});

function load(): XmlNode {
  return parseXmlForXPath(xml);
}

function nodes(root: XmlNode, expression: string): XmlNode[] {
  return compileXPath(expression, { prefixes }).evaluateNodes(root, nav);
}

describe('example-jukebox data', () => {
  test('the fixture follows the module in the repository', () => {
    const module = readFileSync(yangFile, 'utf8');
    expect(module).toContain(`namespace "${JBOX}"`);
    for (const leaf of ['catalogue-number', 'artist-count', 'location', 'gap'])
      expect(module).toContain(`leaf ${leaf}`);
  });

  test('a leafref to a playlist name holds when the playlist exists', () => {
    // rpc play { input { leaf playlist { type leafref { path "/jbox:jukebox/jbox:playlist/jbox:name"; } } } }
    const root = load();
    const input = appendChild(root, xmlElement('input', JBOX, [xmlElement('playlist', JBOX, 'Foo-One')]));
    const exists = compileXPath('/jbox:jukebox/jbox:playlist[jbox:name = current()]', { prefixes });
    const playlist = input.children[0]!;
    expect(exists.evaluateBoolean(playlist, nav)).toBe(true);
    playlist.value = 'Missing';
    expect(exists.evaluateBoolean(playlist, nav)).toBe(false);
  });

  test('a must on song-number bounds it by the size of the named playlist', () => {
    const root = load();
    const input = appendChild(
      root,
      xmlElement('input', JBOX, [
        xmlElement('playlist', JBOX, 'Foo-One'),
        xmlElement('song-number', JBOX, '2'),
      ]),
    );
    const must = compileXPath(
      '. <= count(/jbox:jukebox/jbox:playlist[jbox:name = current()/../jbox:playlist]/jbox:song)',
      { prefixes },
    );
    const songNumber = input.children[1]!;
    expect(must.evaluateBoolean(songNumber, nav)).toBe(true);
    songNumber.value = '3';
    expect(must.evaluateBoolean(songNumber, nav)).toBe(false);
  });

  test('a must keeps artist-count equal to the number of artists', () => {
    const root = load();
    const library = nodes(root, '/jbox:jukebox/jbox:library')[0]!;
    const must = compileXPath('jbox:artist-count = count(jbox:artist)', { prefixes });
    expect(must.evaluateBoolean(library, nav)).toBe(true);
    library.children.splice(0, 1);
    expect(must.evaluateBoolean(library, nav)).toBe(false);
  });

  test('a must that song locations are unique within an album', () => {
    const root = load();
    const must = compileXPath('count(../jbox:song[jbox:location = current()/jbox:location]) = 1', {
      prefixes,
    });
    const songs = nodes(root, '//jbox:song[jbox:location]');
    expect(songs).toHaveLength(3);
    expect(songs.every((song) => must.evaluateBoolean(song, nav))).toBe(true);
    songs[1]!.children.find((c) => c.name === 'location')!.value =
      '/media/foo/a7/wasting-light/bridge-burning.mp3';
    expect(songs.map((song) => must.evaluateBoolean(song, nav))).toEqual([false, false, true]);
  });

  test('a when on admin depends on the album year', () => {
    const root = load();
    const when = compileXPath('../jbox:year >= 2000', { prefixes });
    const albums = nodes(root, '//jbox:album');
    expect(albums.map((album) => when.evaluateBoolean(nodes(album, 'jbox:admin')[0] ?? album, nav))).toEqual([
      true,
      false,
      false,
    ]);
  });

  test('a when selects rock albums and albums of genres derived from genre', () => {
    const root = load();
    const rock = compileXPath("derived-from-or-self(jbox:genre, 'jbox:rock')", { prefixes });
    const anyGenre = compileXPath("derived-from(jbox:genre, 'jbox:genre')", { prefixes });
    const albums = nodes(root, '//jbox:album');
    expect(albums.map((a) => rock.evaluateBoolean(a, nav))).toEqual([false, true, false]);
    expect(albums.map((a) => anyGenre.evaluateBoolean(a, nav))).toEqual([true, true, true]);
  });

  test('playlist song ids are instance-identifiers that deref() follows', () => {
    const root = load();
    const must = compileXPath('count(deref(jbox:id)) = 1', { prefixes });
    const entries = nodes(root, '/jbox:jukebox/jbox:playlist/jbox:song');
    expect(entries.map((e) => must.evaluateBoolean(e, nav))).toEqual([true, true, false]);
    const target = compileXPath('string(deref(jbox:id)/jbox:location)', { prefixes });
    expect(target.evaluateString(entries[0]!, nav)).toBe('/media/foo/a7/wasting-light/rope.mp3');
  });

  test('a range check on the decimal64 gap', () => {
    const root = load();
    const gap = nodes(root, '/jbox:jukebox/jbox:player/jbox:gap')[0]!;
    const must = compileXPath('. >= 0.0 and . <= 2.0', { prefixes });
    expect(must.evaluateBoolean(gap, nav)).toBe(true);
    gap.value = '2.5';
    expect(must.evaluateBoolean(gap, nav)).toBe(false);
  });

  test('a RESTCONF-style filter names modules as prefixes', () => {
    const root = load();
    const filter = compileXPath(
      "/example-jukebox:jukebox/example-jukebox:library/example-jukebox:artist[example-jukebox:name='Foo Fighters']//example-jukebox:song/example-jukebox:name",
      {
        prefixes: { 'example-jukebox': JBOX },
      },
    );
    expect(filter.evaluateNodes(root, xmlNavigator).map((n) => xmlNavigator.stringValue(n))).toEqual([
      'Bridge Burning',
      'Rope',
    ]);
  });

  test('key predicates give the same answers with and without a cache', () => {
    const root = load();
    const cache = createEvaluationCache();
    const expr = compileXPath(
      "/jbox:jukebox/jbox:library/jbox:artist[jbox:name = $who]/jbox:album[jbox:name = 'Tender Prey' or jbox:year = 2011]/jbox:name",
      { prefixes, variables: { who: '' } },
    );
    for (const who of ['Foo Fighters', 'Nick Cave and the Bad Seeds', 'Nobody']) {
      const plain = expr.evaluateNodes(root, nav, { variables: { who } });
      const cached = expr.evaluateNodes(root, nav, { variables: { who }, cache });
      expect(cached).toEqual(plain);
    }
    expect(cache.keyIndexes.size).toBe(1);
  });
});

// the jukebox schema tree (data nodes only), as a compiled schema would expose it
interface SchemaNode {
  name: string;
  children: SchemaNode[];
  parent: SchemaNode | undefined;
}

function schema(name: string, children: (SchemaNode | string)[] = []): SchemaNode {
  const node: SchemaNode = { name, children: [], parent: undefined };
  for (const child of children) {
    const c = typeof child === 'string' ? schema(child) : child;
    c.parent = node;
    node.children.push(c);
  }
  return node;
}

const schemaRoot = schema('', [
  schema('jukebox', [
    schema('library', [
      schema('artist', [
        'name',
        schema('album', [
          'name',
          'genre',
          'year',
          schema('admin', ['label', 'catalogue-number']),
          schema('song', ['name', 'location', 'format', 'length']),
        ]),
      ]),
      'artist-count',
      'album-count',
      'song-count',
    ]),
    schema('playlist', ['name', 'description', schema('song', ['index', 'id'])]),
    schema('player', ['gap']),
  ]),
]);

const schemaNav: SchemaNavigator<SchemaNode> = {
  root: (n) => {
    let r = n;
    while (r.parent) r = r.parent;
    return r;
  },
  parent: (n) => n.parent,
  children: (n) => n.children,
  localName: (n) => n.name,
  namespace: () => JBOX,
};

function schemaNode(...names: string[]): SchemaNode {
  let node = schemaRoot;
  for (const name of names) node = node.children.find((c) => c.name === name)!;
  return node;
}

describe('static checks against the jukebox schema', () => {
  test('accepts paths that name schema nodes', () => {
    const album = schemaNode('jukebox', 'library', 'artist', 'album');
    for (const expression of [
      '../jbox:name',
      'jbox:song[jbox:name = current()/jbox:name]/jbox:location',
      '/jbox:jukebox/jbox:playlist/jbox:song/jbox:id',
      'count(jbox:admin/*) > 0 and //jbox:gap',
      "derived-from(jbox:genre, 'jbox:rock')",
    ]) {
      expect(checkSchemaPaths(parseXPath(expression), schemaNav, album, { prefixes })).toEqual([]);
    }
  });

  test('reports a misspelt step with its position', () => {
    const ast = parseXPath('/jbox:jukebox/jbox:library/jbox:artst/jbox:name');
    const errors = checkSchemaPaths(ast, schemaNav, schemaRoot, { prefixes });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'NO_SCHEMA_NODE', position: 27, step: 'jbox:artst' });
  });

  test('reports steps inside predicates and after current()', () => {
    const song = schemaNode('jukebox', 'playlist', 'song');
    const ast = parseXPath('/jbox:jukebox/jbox:playlist[jbox:nam = current()/../jbox:nme]');
    const errors = checkSchemaPaths(ast, schemaNav, song, { prefixes });
    expect(errors.map((e) => e.position)).toEqual([28, 52]);
  });

  test('reports a parent step above the root', () => {
    const errors = checkSchemaPaths(parseXPath('../../x'), schemaNav, schemaNode('jukebox'), { prefixes });
    expect(errors).toMatchObject([{ code: 'NO_SCHEMA_NODE', position: 3 }]);
  });

  test('follows every axis the schema decides', () => {
    const song = schemaNode('jukebox', 'library', 'artist', 'album', 'song');
    const ok = [
      'ancestor::jbox:artist/jbox:name',
      'ancestor-or-self::jbox:song/jbox:location',
      'descendant-or-self::jbox:song/descendant::jbox:length',
      'self::jbox:song/following-sibling::jbox:admin/jbox:label',
      'preceding-sibling::jbox:genre or -count(//jbox:index)',
      '(../jbox:song)[1]/jbox:name',
      'following::jbox:anything | @jbox:meta',
    ];
    for (const expression of ok) {
      expect(checkSchemaPaths(parseXPath(expression), schemaNav, song, { prefixes }), expression).toEqual([]);
    }
    const bad = parseXPath(
      'ancestor::jbox:playlist | self::jbox:album | descendant::jbox:year | (.)[jbox:x]',
    );
    expect(checkSchemaPaths(bad, schemaNav, song, { prefixes }).map((e) => e.position)).toEqual([
      0, 26, 45, 73,
    ]);
  });

  test('reports a name in another namespace and an unknown prefix', () => {
    const errors = checkSchemaPaths(parseXPath('/other:jukebox | /jbox:jukebox/x:y'), schemaNav, schemaRoot, {
      prefixes: { ...prefixes, other: 'urn:other' },
    });
    expect(errors.map((e) => e.code)).toEqual(['NO_SCHEMA_NODE', 'UNKNOWN_PREFIX']);
  });
});
