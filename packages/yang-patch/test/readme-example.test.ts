import { decodeJson } from '@yangkit/yang-json-codec';
import { loadSchema } from '@yangkit/yang-schema';
import { expect, test } from 'vitest';
import {
  applyPlan,
  encodeStatusJson,
  parseYangPatch,
  patchStatus,
  planPatch,
  statusOfResult,
  toEditConfig,
  YangPatchError,
} from '../src/index.js';
import { SHARED_YANG } from './helpers.js';

/** The README example, line for line, with its printed output captured. */
async function readmeExample(body: string): Promise<string[]> {
  const printed: string[] = [];
  const console = { log: (text: unknown) => printed.push(String(text)) };

  const schema = await loadSchema({ paths: [SHARED_YANG], modules: ['example-jukebox', 'ietf-yang-patch'] });
  const id =
    "/example-jukebox:jukebox/library/artist[name='Foo Fighters']/album[name='Wasting Light']/song[name='Rope']";
  const datastore = decodeJson(
    schema,
    {
      'example-jukebox:jukebox': {
        library: {
          artist: [
            {
              name: 'Foo Fighters',
              album: [{ name: 'Wasting Light', song: [{ name: 'Rope', location: '/media/rope.mp3' }] }],
            },
          ],
        },
        playlist: [{ name: 'Foo-One', song: [1, 2, 3].map((index) => ({ index, id })) }],
      },
    },
    { kind: 'config' },
  );

  try {
    const patch = parseYangPatch(schema, body, {
      encoding: 'json',
      target: '/example-jukebox:jukebox/playlist=Foo-One',
    });
    const plan = planPatch(patch);
    const result = applyPlan(datastore, plan);
    console.log(encodeStatusJson(statusOfResult(patch.patchId, result)));
    console.log(toEditConfig(schema, plan).documents[0]?.config);
  } catch (error) {
    if (!YangPatchError.isInstance(error)) throw error;
    console.log(encodeStatusJson(patchStatus(undefined, error)));
  }
  return printed;
}

test('the README example prints ok and the edit-config of the move', async () => {
  const body = JSON.stringify({
    'ietf-yang-patch:yang-patch': {
      'patch-id': 'move-song-patch',
      edit: [{ 'edit-id': 'edit1', operation: 'move', target: '/song=1', point: '/song=3', where: 'after' }],
    },
  });
  const [status, config] = await readmeExample(body);
  expect(JSON.parse(status!)).toEqual({
    'ietf-yang-patch:yang-patch-status': { 'patch-id': 'move-song-patch', ok: [null] },
  });
  expect(config).toContain(
    '<playlist><name>Foo-One</name><song nc:operation="merge" yang:insert="after" yang:key="[jbox:index=\'3\']"',
  );
  expect(config).toContain('<index>1</index></song></playlist></jukebox></config>');
});

test('the README example prints the failing edit for a malformed body', async () => {
  const body = JSON.stringify({
    'ietf-yang-patch:yang-patch': {
      'patch-id': 'p',
      edit: [{ 'edit-id': 'edit1', operation: 'shuffle', target: '/song=1' }],
    },
  });
  const [status] = await readmeExample(body);
  const edit = JSON.parse(status!)['ietf-yang-patch:yang-patch-status']['edit-status'].edit[0];
  expect(edit['edit-id']).toBe('edit1');
  expect(edit.errors.error[0]['error-tag']).toBe('invalid-value');
});
