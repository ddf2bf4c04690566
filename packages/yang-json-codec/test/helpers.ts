import path from 'node:path';
import { loadSchema, type SchemaTree } from '@yangkit/yang-schema';
import { CodecError } from '../src/errors';
import type { Steps } from '../src/steps';

/** The repository's YANG modules: the RFC 8040 examples and the module corpus. */
export const SHARED_YANG = path.resolve(__dirname, '../../../yang');
/** The codec's own test modules. */
export const TEST_YANG = path.resolve(__dirname, 'fixtures/yang');
export const FIXTURES = path.resolve(__dirname, 'fixtures');

/** Modules of the schema every test shares. */
export const TEST_MODULES = [
  'ietf-interfaces',
  'ietf-ip',
  'iana-if-type',
  'example-jukebox',
  'example-ops',
  'example-actions',
  'example-mod',
  'example-events',
  'example-foomod',
  'example-barmod',
  'codec-types',
  'codec-aug',
  'ietf-restconf',
  'ietf-yang-patch',
  'ietf-origin',
  'ietf-netconf-with-defaults',
];

let schema: Promise<SchemaTree> | undefined;

/** The compiled test schema (compiled once per test file). */
export function testSchema(): Promise<SchemaTree> {
  schema ??= loadSchema({ paths: [TEST_YANG, SHARED_YANG], modules: TEST_MODULES });
  return schema;
}

/** Runs `fn` and returns the CodecError it throws (fails on anything else). */
export function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (e) {
    if (CodecError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('expected a CodecError');
}

/** Runs `steps` to its end; its result and how many times it yielded on the way. */
export function drain<T>(steps: Steps<T>): { value: T; yields: number } {
  let yields = 0;
  let next = steps.next();
  while (next.done !== true) {
    yields++;
    next = steps.next();
  }
  return { value: next.value, yields };
}
