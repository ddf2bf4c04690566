import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeXml, type InstanceTree } from '@yangkit/yang-json-codec';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { type ApplyResult, applyPlan, parseYangPatch, planPatch, YangPatchError } from '../src/index.js';

/** The repository's YANG modules: the RFC 8040 examples and the module corpus. */
export const SHARED_YANG = path.resolve(__dirname, '../../../yang');
export const FIXTURES = path.resolve(__dirname, 'fixtures');

let schema: Promise<SchemaTree> | undefined;

/** example-jukebox (RFC 8040 appendix A.1), the package's patch-test module, ietf-yang-patch and ietf-restconf. */
export function jukeboxSchema(): Promise<SchemaTree> {
  schema ??= loadSchema({
    paths: [SHARED_YANG, path.join(FIXTURES, 'yang')],
    modules: ['example-jukebox', 'patch-test', 'ietf-yang-patch', 'ietf-restconf'],
  });
  return schema;
}

/** The RFC 8072 appendix A album. */
export const ALBUM = '/example-jukebox:jukebox/library/artist=Foo%20Fighters/album=Wasting%20Light';

/** Runs `fn` and returns the YangPatchError it throws (fails on anything else). */
export function patchError(fn: () => unknown): YangPatchError {
  try {
    fn();
  } catch (e) {
    if (YangPatchError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('expected a YangPatchError');
}

/** The jukebox datastore of test/fixtures, decoded as configuration. */
export function jukeboxDatastore(schema: SchemaTree): InstanceTree {
  return decodeXml(schema, readFileSync(path.join(FIXTURES, 'jukebox-datastore.xml'), 'utf8'), {
    kind: 'config',
  });
}

/** A JSON yang-patch body with the given edits. */
export function jsonPatch(edits: readonly Record<string, unknown>[], patchId = 'p1'): string {
  return JSON.stringify({ 'ietf-yang-patch:yang-patch': { 'patch-id': patchId, edit: edits } });
}

/** Parses, plans and applies a JSON patch to `tree`. */
export function applyJson(
  schema: SchemaTree,
  tree: InstanceTree,
  edits: readonly Record<string, unknown>[],
  target?: string,
): ApplyResult {
  const patch = parseYangPatch(schema, jsonPatch(edits), {
    encoding: 'json',
    ...(target === undefined ? {} : { target }),
  });
  return applyPlan(tree, planPatch(patch));
}
