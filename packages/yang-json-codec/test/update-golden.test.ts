import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { FIXTURES, testSchema } from './helpers';

/** Rewrites the expected files from the current encoders: run on purpose with UPDATE_GOLDEN=1 and review the diff. */
test.runIf(process.env.UPDATE_GOLDEN === '1')('rewrites the golden expected files', async () => {
  const schema = await testSchema();
  const casesDir = path.join(FIXTURES, 'cases');
  for (const name of readdirSync(casesDir).sort()) {
    const dir = path.join(casesDir, name);
    const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
    const o = existsSync(path.join(dir, 'case.json')) ? JSON.parse(read('case.json')) : {};
    const parent = o.parent ? schema.find(o.parent) : undefined;
    const opts = {
      kind: o.kind ?? 'data',
      ...(o.operation ? { operation: o.operation } : {}),
      ...(parent ? { parent } : {}),
      ...(o.yangData ? { yangData: o.yangData } : {}),
    };
    for (const [inp, out, f] of [
      ['input.xml', 'expected.json', 'x'],
      ['input.json', 'expected.xml', 'j'],
    ] as const) {
      if (!existsSync(path.join(dir, inp))) continue;
      try {
        const tree = f === 'x' ? decodeXml(schema, read(inp), opts) : decodeJson(schema, read(inp), opts);
        const text =
          f === 'x'
            ? encodeJson(tree, { indent: 2, ...o.encode })
            : encodeXml(tree, { indent: 2, ...o.encode });
        writeFileSync(path.join(dir, out), `${text}\n`);
      } catch (e) {
        throw new Error(`${name}/${inp}: ${(e as Error).message}`);
      }
    }
  }
});
