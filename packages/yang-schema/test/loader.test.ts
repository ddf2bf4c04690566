import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadModules, loadSchema, standardModulesDir } from '../src/index';
import { corpusDir, sharedYang } from './helpers';

describe('loadSchema', () => {
  test('finds imports recursively in module directories', async () => {
    const tree = await loadSchema({ paths: [corpusDir], modules: ['ietf-ip'], standardModules: false });
    expect(tree.moduleByName('ietf-ip')?.implemented).toBe(true);
    expect(tree.moduleByName('ietf-inet-types')?.implemented).toBe(false);
    expect(tree.find('/ietf-interfaces:interfaces/interface/ietf-ip:ipv4/mtu')?.type?.base).toBe('uint16');
  });

  test('picks the newest revision when an import names none', async () => {
    const { parsed } = await loadModules({
      paths: [corpusDir],
      modules: ['ietf-yang-library'],
      standardModules: false,
    });
    expect(parsed.find((p) => p.name === 'ietf-yang-library')?.revision).toBe('2019-01-04');
  });

  test('loads an exact revision given as name@revision', async () => {
    const tree = await loadSchema({
      paths: [corpusDir],
      modules: ['ietf-yang-library@2016-06-21'],
      standardModules: false,
    });
    expect(tree.moduleByName('ietf-yang-library')?.revision).toBe('2016-06-21');
    expect(tree.topLevel('ietf-yang-library', 'modules-state')?.config).toBe(false);
  });

  test('asks the fetch callback for modules no directory has', async () => {
    const asked: string[] = [];
    const tree = await loadSchema({
      modules: ['example-jukebox'],
      standardModules: false,
      fetch: (name, revision) => {
        asked.push(`${name}@${revision ?? ''}`);
        const dir =
          name === 'example-jukebox' ? path.join(sharedYang, 'examples') : path.join(corpusDir, 'ietf');
        const file =
          name === 'example-jukebox' ? 'example-jukebox@2016-08-15.yang' : `${name}@2013-07-15.yang`;
        const full = path.join(dir, file);
        return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
      },
    });
    expect(asked).toEqual(['example-jukebox@']);
    expect(tree.topLevel('example-jukebox', 'jukebox')?.presence).toBeDefined();
  });

  test('compiles modules given as strings', async () => {
    const text = 'module s { yang-version 1.1; namespace "urn:s"; prefix s; leaf x { type string; } }';
    const tree = await loadSchema({ modules: ['s'], texts: [text], standardModules: false });
    expect(tree.find('/s:x')?.kind).toBe('leaf');
    expect(tree.moduleByName('s')?.source).toBe(text);
  });

  test('finds the shipped standard modules by default', async () => {
    const tree = await loadSchema({ modules: ['ietf-restconf', 'ietf-netconf-nmda'] });
    expect(tree.yangData.has('ietf-restconf:yang-errors')).toBe(true);
    expect(tree.find('/ietf-netconf-nmda:get-data/input/datastore')?.type?.base).toBe('identityref');
  });

  test('searches folders with symbolic link loops once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yang-schema-'));
    try {
      writeFileSync(
        path.join(dir, 'loop@2020-01-01.yang'),
        'module loop { namespace "urn:l"; prefix l; revision 2020-01-01; }',
      );
      symlinkSync(dir, path.join(dir, 'again'));
      symlinkSync(dir, path.join(dir, 'and-again'));
      const tree = await loadSchema({ paths: [dir], modules: ['loop'], standardModules: false });
      expect(tree.moduleByName('loop')?.revision).toBe('2020-01-01');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('prefers a module in paths to a newer revision shipped with the package', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yang-schema-'));
    try {
      writeFileSync(
        path.join(dir, 'ietf-interfaces@2014-05-08.yang'),
        'module ietf-interfaces { namespace "urn:ietf:params:xml:ns:yang:ietf-interfaces"; prefix if; revision 2014-05-08; }',
      );
      const tree = await loadSchema({ paths: [dir], modules: ['ietf-interfaces'] });
      expect(tree.moduleByName('ietf-interfaces')?.revision).toBe('2014-05-08');
      const shipped = await loadSchema({ paths: [dir], modules: ['ietf-interfaces@2018-02-20'] });
      expect(shipped.moduleByName('ietf-interfaces')?.revision).toBe('2018-02-20');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('searches fallbackPaths after paths, whatever the revisions', async () => {
    const [mine, app] = [
      mkdtempSync(path.join(tmpdir(), 'yang-schema-')),
      mkdtempSync(path.join(tmpdir(), 'yang-schema-')),
    ];
    const module = (revision: string) => `module m { namespace "urn:m"; prefix m; revision ${revision}; }`;
    try {
      writeFileSync(path.join(mine, 'm@2001-01-01.yang'), module('2001-01-01'));
      writeFileSync(path.join(app, 'm@2020-01-01.yang'), module('2020-01-01'));
      const options = { modules: ['m'], standardModules: false };
      const tree = await loadSchema({ ...options, paths: [mine], fallbackPaths: [app] });
      expect(tree.moduleByName('m')?.revision).toBe('2001-01-01');
      const fallback = await loadSchema({ ...options, fallbackPaths: [app] });
      expect(fallback.moduleByName('m')?.revision).toBe('2020-01-01');
    } finally {
      rmSync(mine, { recursive: true, force: true });
      rmSync(app, { recursive: true, force: true });
    }
  });

  test('places standardModulesDir next to the package sources', () => {
    expect(existsSync(path.join(standardModulesDir, 'ietf-restconf@2017-01-26.yang'))).toBe(true);
    expect(path.basename(standardModulesDir)).toBe('yang');
  });
});

describe('yangLibrary', () => {
  test('describes implemented and import-only modules (RFC 8525 and RFC 7895)', async () => {
    const tree = await loadSchema({ paths: [corpusDir], modules: ['ietf-ip'], standardModules: false });
    const lib = tree.yangLibrary();
    const set = (lib['ietf-yang-library:yang-library']['module-set'] as Record<string, unknown>[])[0] ?? {};
    const names = (set.module as { name: string }[]).map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(['ietf-ip', 'ietf-interfaces']));
    const imports = (set['import-only-module'] as { name: string }[]).map((m) => m.name);
    expect(imports).toContain('ietf-inet-types');
    const state = lib['ietf-yang-library:modules-state'].module as Record<string, unknown>[];
    expect(state.find((m) => m.name === 'ietf-inet-types')).toMatchObject({
      revision: '2013-07-15',
      'conformance-type': 'import',
    });
    expect(state.find((m) => m.name === 'ietf-ip')?.feature).toEqual(
      expect.arrayContaining(['ipv4-non-contiguous-netmasks']),
    );
  });

  test('names the datastores and the schema they use', async () => {
    const tree = await loadSchema({ modules: ['ietf-datastores'] });
    const lib = tree.yangLibrary({ datastores: ['ietf-datastores:running', 'ietf-datastores:candidate'] });
    expect(lib['ietf-yang-library:yang-library'].datastore).toEqual([
      { name: 'ietf-datastores:running', schema: 'complete' },
      { name: 'ietf-datastores:candidate', schema: 'complete' },
    ]);
  });
});
