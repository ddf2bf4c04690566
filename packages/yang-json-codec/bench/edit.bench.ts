import path from 'node:path';
import { loadSchema } from '@yangkit/yang-schema';
import { bench, describe } from 'vitest';
import { applyEdit, ChangeLog, type DataNode, decodeJson, validateChanges } from '../src/index';

/**
 * One large edit as a datastore makes it: the body of 10,000 and 100,000 new list entries decoded
 * (each run needs its own, as a taken edit is used up), merged into a tree (the edit's nodes taken or
 * copied), the changes replayed on a second tree (a commit of the candidate to running) and validated
 * there: `npx vitest bench --run bench/edit.bench.ts`.
 */
const schema = await loadSchema({
  paths: [path.resolve(__dirname, '../../../yang/examples')],
  modules: ['example-jukebox'],
});
const start = { 'example-jukebox:jukebox': { player: { gap: '0.5' } } };
const tree = () => decodeJson(schema, start, { kind: 'config' });

function playlists(count: number): DataNode {
  const playlist = Array.from({ length: count }, (_, i) => ({ name: `p${i}` }));
  const body = decodeJson(schema, { 'example-jukebox:jukebox': { playlist } }, { kind: 'config' });
  return [...body.children.values()][0]![0]!;
}

function commit(node: DataNode, adopt: boolean): void {
  const candidate = new ChangeLog(tree());
  applyEdit(candidate, { operation: 'merge', target: [{ schema: node.schema }], node }, { adopt });
  const running = new ChangeLog(tree());
  for (const change of candidate.since()) running.replay(change);
  validateChanges(running.tree, running.since(), { config: true });
}

for (const count of [10_000, 100_000]) {
  const label = count.toLocaleString('en');
  describe(`merge of ${label} entries, replayed and validated`, () => {
    bench(
      `edit's nodes taken (adopt), ${label}`,
      () => {
        commit(playlists(count), true);
      },
      { iterations: 5 },
    );
    bench(
      `edit's nodes copied, ${label}`,
      () => {
        commit(playlists(count), false);
      },
      { iterations: 5 },
    );
  });
}
