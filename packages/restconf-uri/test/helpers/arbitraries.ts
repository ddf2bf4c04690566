import fc from 'fast-check';
import { expect } from 'vitest';
import { type ApiPath, type ApiPathSegment, type FieldsNode, RestconfUriError } from '../../src/index.js';

/** A YANG identifier. */
export const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/);

/** Any Unicode text, with the characters that matter to api-paths made frequent. */
export const keyValue = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom(',', '/', '=', '%', ' ', '+', '?', '#', ':', "'", '"', '*', 'é', '😀', 'a'),
    maxLength: 8,
  }),
);

/** An api-path segment with optional module and keys, the first key sometimes a wildcard. */
export const segment: fc.Arbitrary<ApiPathSegment> = fc
  .record(
    {
      module: identifier,
      name: identifier,
      keys: fc.array(keyValue, { minLength: 1, maxLength: 4 }),
      wild: fc.boolean(),
    },
    { requiredKeys: ['name', 'wild'] },
  )
  .map(({ wild, ...s }) =>
    wild && s.keys !== undefined
      ? ({ ...s, keys: ['*', ...s.keys.slice(1)], wildcards: [0] } as ApiPathSegment)
      : (s as ApiPathSegment),
  );

/** An api-path of up to six segments. */
export const apiPath: fc.Arbitrary<ApiPath> = fc
  .array(segment, { maxLength: 6 })
  .map((segments) => ({ segments }));

/** Strings over the api-path alphabet, to reach deep into the parser. */
export const pathLike = fc.string({
  unit: fc.constantFrom('/', ':', '=', ',', '%', '2', 'C', 'F', 'a', 'b', '-', '.', '?', ' ', 'é', '\uD800'),
  maxLength: 40,
});

/** A fields selection tree without duplicate siblings. */
export const fieldsTree: fc.Arbitrary<FieldsNode[]> = fc.letrec<{ nodes: FieldsNode[] }>((tie) => ({
  nodes: fc.uniqueArray(
    fc.record(
      {
        module: identifier,
        name: identifier,
        children: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant([]), tie('nodes')),
      },
      { requiredKeys: ['name', 'children'] },
    ),
    { minLength: 1, maxLength: 4, selector: (n) => `${n.module ?? ''}:${n.name}` },
  ),
})).nodes;

/** Runs `fn`; anything it throws must be a RestconfUriError with a 4xx status. */
export function onlyOwnErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!RestconfUriError.isInstance(error)) throw error;
    expect(error).toBeInstanceOf(RestconfUriError);
    expect([400, 404]).toContain(error.httpStatus);
  }
}
