import { createRequire } from 'node:module';
import type { SchemaTree } from '@yangkit/yang-schema';
import type * as AjvModule from 'ajv';
import type { ErrorObject } from 'ajv';
import { type JsonSchemaOptions, toJsonSchema } from './json-schema';

/** Result of a structural check of an RFC 7951 document. */
export interface JsonCheck {
  readonly valid: boolean;
  /** ajv's findings (instancePath, message) when not valid. */
  readonly errors: readonly ErrorObject[];
}

/**
 * Compiles {@link toJsonSchema} with ajv into a reusable checker: a fast structural pre-check of JSON bodies
 * (shape, JSON types, ranges, enums) for clients or a gateway edge. The full YANG validation is
 * decodeJson + validate.
 */
export function compileJsonValidator(
  tree: SchemaTree,
  options: JsonSchemaOptions = {},
): (document: unknown) => JsonCheck {
  const check = new (loadAjv().Ajv)({ strict: false, allErrors: true }).compile(toJsonSchema(tree, options));
  return (document) =>
    check(document) ? { valid: true, errors: [] } : { valid: false, errors: [...(check.errors ?? [])] };
}

/**
 * ajv, required on the first compilation rather than imported: its modules cost a process some
 * megabytes of memory, and most users of the codec never compile a JSON Schema.
 */
function loadAjv(): typeof AjvModule {
  return createRequire(import.meta.url)('ajv') as typeof AjvModule;
}
