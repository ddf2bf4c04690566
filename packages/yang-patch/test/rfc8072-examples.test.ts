import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeJson, decodeXml, encodeJson, type InstanceTree } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  applyPlan,
  encodeStatusJson,
  encodeStatusXml,
  parseYangPatch,
  planPatch,
  statusOfResult,
  toEditConfig,
} from '../src/index.js';
import { FIXTURES, jukeboxSchema } from './helpers.js';

/** RFC 8072 appendix A.1: each example request, in both encodings, against the jukebox of the appendix. */
const CASES = path.join(FIXTURES, 'rfc8072');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

let schema: SchemaTree;
let datastore: InstanceTree;

beforeAll(async () => {
  schema = await jukeboxSchema();
  datastore = decodeXml(schema, readFileSync(path.join(FIXTURES, 'jukebox-datastore.xml'), 'utf8'), {
    kind: 'config',
  });
});

/** Compares `actual` with a golden file, writing it when UPDATE_GOLDEN=1. */
function golden(file: string, actual: string): void {
  if (UPDATE || !existsSync(file)) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

function run(dir: string, encoding: 'json' | 'xml') {
  const { target } = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')) as { target: string };
  const body = readFileSync(path.join(dir, `request.${encoding}`), 'utf8');
  const patch = parseYangPatch(schema, body, { encoding, target });
  const plan = planPatch(patch);
  const result = applyPlan(datastore, plan);
  return { patch, plan, result, status: statusOfResult(patch.patchId, result) };
}

for (const name of readdirSync(CASES).sort()) {
  const dir = path.join(CASES, name);
  describe(`RFC 8072 ${name}`, () => {
    for (const encoding of ['json', 'xml'] as const) {
      test(`the ${encoding} request gives the golden yang-patch-status in both encodings`, () => {
        const { status } = run(dir, encoding);
        golden(path.join(dir, 'status.json'), `${encodeStatusJson(status)}\n`);
        golden(path.join(dir, 'status.xml'), `${encodeStatusXml(status)}\n`);
      });

      test(`the ${encoding} request leaves the golden datastore content`, () => {
        const { result } = run(dir, encoding);
        const after = result.ok ? result.tree : datastore;
        golden(path.join(dir, 'datastore-after.json'), `${encodeJson(after, { indent: 2 })}\n`);
      });
    }

    test('both encodings plan the same edit-config documents', () => {
      const fromJson = toEditConfig(schema, run(dir, 'json').plan);
      const fromXml = toEditConfig(schema, run(dir, 'xml').plan);
      expect(fromXml).toEqual(fromJson);
      golden(path.join(dir, 'edit-config.xml'), `${fromJson.documents.map((d) => d.config).join('\n')}\n`);
    });

    test('the status decodes as ietf-yang-patch:yang-patch-status through the codec', () => {
      const { status } = run(dir, 'json');
      const options = { kind: 'yang-data', yangData: 'ietf-yang-patch:yang-patch-status' } as const;
      expect(() => decodeJson(schema, encodeStatusJson(status), options)).not.toThrow();
      expect(() => decodeXml(schema, encodeStatusXml(status), options)).not.toThrow();
    });
  });
}
