import type { SchemaTree } from '@yangkit/yang-schema';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeXml, walk } from '../src/index';
import { codecError } from './helpers';
import { treeSchema } from './tree-fixtures';

let schema: SchemaTree;
beforeAll(async () => {
  schema = await treeSchema();
});

const NC = 'urn:ietf:params:xml:ns:netconf:base:1.0';
const YANG = 'urn:ietf:params:xml:ns:yang:1';
const config = (inner: string) =>
  `<top xmlns="urn:example:tree-test" xmlns:nc="${NC}" xmlns:yang="${YANG}">${inner}</top>`;

describe('editAttributes', () => {
  test('keeps nc:operation and yang:insert as annotations', () => {
    const tree = decodeXml(
      schema,
      config(`<queue nc:operation="merge" yang:insert="after" yang:key="[tt:id='1']"><id>2</id></queue>`),
      { kind: 'config', editAttributes: true },
    );
    const queue = [...walk(tree)].find((n) => n.schema.name === 'queue')!;
    expect(queue.annotations).toEqual([
      { module: 'ietf-netconf', name: 'operation', value: 'merge' },
      { module: 'yang', name: 'insert', value: 'after' },
      { module: 'yang', name: 'key', value: "[tt:id='1']" },
    ]);
  });

  test('a leaf that is deleted needs no valid value', () => {
    const tree = decodeXml(
      schema,
      config(
        '<item><name>a</name><part nc:operation="remove"><a>p</a><b>1</b></part><size nc:operation="delete"/></item>',
      ),
      { kind: 'config', editAttributes: true },
    );
    expect([...walk(tree)].find((n) => n.schema.name === 'size')?.value).toBeUndefined();
  });

  test('without the option the YANG insert attribute is unknown', () => {
    const e = codecError(() =>
      decodeXml(schema, config('<queue yang:insert="first"><id>2</id></queue>'), { kind: 'config' }),
    );
    expect(e.code).toBe('UNKNOWN_ATTRIBUTE');
  });
});
