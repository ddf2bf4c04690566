import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeJson, decodeXml, encodeJson, encodeXml } from '../src/index';
import { FIXTURES, testSchema } from './helpers';

const casesDir = path.join(FIXTURES, 'cases');

interface CaseOptions {
  readonly kind?:
    | 'data'
    | 'config'
    | 'resource'
    | 'rpc-input'
    | 'rpc-output'
    | 'action-input'
    | 'action-output'
    | 'notification'
    | 'yang-data';
  readonly operation?: string;
  readonly parent?: string;
  readonly yangData?: string;
  readonly encode?: Record<string, unknown>;
}

const cases = readdirSync(casesDir).sort();

/**
 * Golden pairs: `input.xml` decodes and encodes to `expected.json`, `input.json` to `expected.xml`
 * (both pretty-printed with 2 spaces). `case.json` gives the document kind and options.
 */
describe.each(cases)('golden case %s', (name) => {
  const dir = path.join(casesDir, name);
  const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
  const opts: CaseOptions = existsSync(path.join(dir, 'case.json')) ? JSON.parse(read('case.json')) : {};

  const decodeOptions = async () => {
    const schema = await testSchema();
    const parent = opts.parent === undefined ? undefined : schema.find(opts.parent);
    return {
      schema,
      options: {
        kind: opts.kind ?? 'data',
        ...(opts.operation ? { operation: opts.operation } : {}),
        ...(parent ? { parent } : {}),
        ...(opts.yangData ? { yangData: opts.yangData } : {}),
      },
    };
  };

  test.runIf(existsSync(path.join(dir, 'input.xml')))('converts input.xml to expected.json', async () => {
    const { schema, options } = await decodeOptions();
    const tree = decodeXml(schema, read('input.xml'), options);
    expect(encodeJson(tree, { indent: 2, ...opts.encode })).toBe(read('expected.json').trimEnd());
  });

  test.runIf(existsSync(path.join(dir, 'input.json')))('converts input.json to expected.xml', async () => {
    const { schema, options } = await decodeOptions();
    const tree = decodeJson(schema, read('input.json'), options);
    expect(encodeXml(tree, { indent: 2, ...opts.encode })).toBe(read('expected.xml').trimEnd());
  });
});
