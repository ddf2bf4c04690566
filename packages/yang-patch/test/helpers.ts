import path from 'node:path';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { YangPatchError } from '../src/index.js';

/** ../shared beside the repository root. */
export const SHARED_YANG = path.resolve(__dirname, '../../../../shared/yang');
export const FIXTURES = path.resolve(__dirname, 'fixtures');

let schema: Promise<SchemaTree> | undefined;

/** example-jukebox (RFC 8040 appendix A.1) with ietf-yang-patch and ietf-restconf, compiled once per file. */
export function jukeboxSchema(): Promise<SchemaTree> {
  schema ??= loadSchema({
    paths: [SHARED_YANG],
    modules: ['example-jukebox', 'example-mod', 'ietf-yang-patch', 'ietf-restconf'],
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
