import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childElements, readXmlDocument } from '@yangkit/xml';
import { encodeXml, selectSubtree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import { createDatastore, type Datastore } from '../src/datastore.js';
import { applyEdits, configEdits, decodeConfig, type ErrorOption } from '../src/edit-config.js';
import { NetconfServerError } from '../src/errors.js';
import { filterElements } from '../src/operation-args.js';
import { StartupStore } from '../src/persistence.js';
import { ServerSession } from '../src/session.js';
import { IF, JB, testSchema } from './helpers.js';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await testSchema();
});

const NAMES = [
  'interfaces',
  'interface',
  'name',
  'type',
  'enabled',
  'description',
  'jukebox',
  'library',
  'artist',
  'album',
  'song',
  'year',
  'bogus',
  'playlist',
  'index',
  'id',
];
const VALUES = [
  'eth0',
  'eth1',
  'true',
  'maybe',
  '2011',
  '-1',
  'ianaift:ethernetCsmacd',
  '',
  'x&amp;y',
  '/j:jukebox',
];
const NSS = [IF, JB, 'urn:example:other'];
const OPS = ['merge', 'replace', 'create', 'delete', 'remove', 'bogus'];

/** Random XML shaped like NETCONF config: schema names, some wrong, operations, odd values. */
const element: fc.Memo<string> = fc.memo((depth) =>
  fc
    .tuple(
      fc.constantFrom(...NAMES),
      fc.option(fc.constantFrom(...NSS), { nil: undefined }),
      fc.option(fc.constantFrom(...OPS), { nil: undefined }),
      depth <= 1 ? fc.constant([] as string[]) : fc.array(element(depth - 1), { maxLength: 3 }),
      fc.constantFrom(...VALUES),
    )
    .map(([name, ns, op, kids, value]) => {
      const attrs = `${ns ? ` xmlns="${ns}"` : ''}${op ? ` nc:operation="${op}"` : ''}`;
      return `<${name}${attrs}>${kids.length > 0 ? kids.join('') : value}</${name}>`;
    }),
);

const doc = fc
  .array(element(4), { minLength: 1, maxLength: 3 })
  .map(
    (els) =>
      `<config xmlns:nc="urn:ietf:params:xml:ns:netconf:base:1.0" xmlns:ianaift="urn:ietf:params:xml:ns:yang:iana-if-type" xmlns:j="${JB}">${els.join('')}</config>`,
  );

function ownErrorsOnly(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!NetconfServerError.isInstance(error)) throw error;
  }
}

/** Applies a `<config>` document as edit-config does, merge by default. */
function applyConfig(ds: Datastore, config: string, errorOption: ErrorOption): void {
  applyEdits(
    schema,
    ds,
    configEdits(decodeConfig(schema, childElements(readXmlDocument(config))), 'merge'),
    errorOption,
  );
}

describe('edit-config and filters on arbitrary input', () => {
  test('an edit throws only the package errors, and rollback-on-error restores the datastore', () => {
    fc.assert(
      fc.property(doc, doc, (first, second) => {
        const ds = createDatastore(schema);
        ownErrorsOnly(() => applyConfig(ds, first, 'continue-on-error'));
        ds.take();
        const before = encodeXml(ds.tree);
        let failed = false;
        try {
          applyConfig(ds, second, 'rollback-on-error');
        } catch (error) {
          if (!NetconfServerError.isInstance(error)) throw error;
          failed = true;
        }
        if (failed) expect(encodeXml(ds.tree)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  test('undoing every change returns the datastore to its start', () => {
    fc.assert(
      fc.property(doc, doc, (first, second) => {
        const ds = createDatastore(schema);
        ownErrorsOnly(() => applyConfig(ds, first, 'continue-on-error'));
        ds.take();
        const before = encodeXml(ds.tree);
        ownErrorsOnly(() => applyConfig(ds, second, 'continue-on-error'));
        ds.undoTo(0);
        expect(encodeXml(ds.tree)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  test('a subtree filter never throws and selects a subset of the data', () => {
    fc.assert(
      fc.property(doc, doc, (data, filter) => {
        const ds = createDatastore(schema);
        ownErrorsOnly(() => applyConfig(ds, data, 'continue-on-error'));
        const all = encodeXml(ds.tree);
        let out = '';
        ownErrorsOnly(() => {
          out = encodeXml(selectSubtree(ds.tree, filterElements(childElements(readXmlDocument(filter)))));
        });
        expect(out.length).toBeLessThanOrEqual(all.length);
      }),
      { numRuns: 300 },
    );
  });

  test('the journal replays to the same datastore', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ncs-prop-'));
    try {
      let n = 0;
      fc.assert(
        fc.property(fc.array(doc, { minLength: 1, maxLength: 4 }), (edits) => {
          const file = path.join(dir, `s${n++}.json`);
          const store = new StartupStore(file, schema, { compactBytes: 300 });
          const ds = createDatastore(schema, store.load());
          for (const e of edits) {
            ownErrorsOnly(() => applyConfig(ds, e, 'continue-on-error'));
            store.append(ds.take());
          }
          store.close();
          const reloaded = new StartupStore(file, schema);
          expect(encodeXml(reloaded.load())).toBe(encodeXml(ds.tree));
          reloaded.close();
        }),
        { numRuns: 100 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('session input', () => {
  test('arbitrary bytes never throw out of the session and end in a reply or a closed session', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 5 }),
        fc.boolean(),
        (chunks, hello) => {
          const written: Buffer[] = [];
          const host = {
            capabilities: () => ['urn:ietf:params:netconf:base:1.0', 'urn:ietf:params:netconf:base:1.1'],
            dispatch: async () => '<ok/>',
            sessionStarted: () => {},
            sessionEnded: () => {},
            maxMessageBytes: 4096,
          };
          const s = new ServerSession(
            host,
            1,
            { username: 'p' },
            { write: (b) => written.push(b) > 0, end: () => {} },
          );
          s.start();
          if (hello)
            s.feed(
              Buffer.from(
                '<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><capabilities><capability>urn:ietf:params:netconf:base:1.1</capability></capabilities></hello>]]>]]>',
              ),
            );
          for (const c of chunks) s.feed(c);
          expect(written.length).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
