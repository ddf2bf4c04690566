import fc from 'fast-check';
import { type XmlNode, xmlElement } from '../src/index.js';

// random trees of a/b/c elements with numeric leaves, and random location paths

/** The shape of a random element: its name and its children, or a leaf value. */
export type Shape = { name: string; kids: Shape[] | string };

/** Random element shapes, a few levels deep. */
export const shapeArb: fc.Arbitrary<Shape> = fc.letrec<{ shape: Shape }>((tie) => ({
  shape: fc.record({
    name: fc.constantFrom('a', 'b', 'c'),
    kids: fc.oneof({ depthSize: 'small' }, fc.nat(5).map(String), fc.array(tie('shape'), { maxLength: 4 })),
  }),
})).shape;

/** The element of a shape, with an attribute `k` holding its name. */
export function buildTree(shape: Shape): XmlNode {
  return xmlElement(shape.name, '', typeof shape.kids === 'string' ? shape.kids : shape.kids.map(buildTree), {
    k: shape.name,
  });
}

const axisArb = fc.constantFrom(
  'child',
  'descendant',
  'descendant-or-self',
  'parent',
  'ancestor',
  'ancestor-or-self',
  'following-sibling',
  'preceding-sibling',
  'following',
  'preceding',
  'self',
  'attribute',
);

/** Random location steps over those trees, with positional and other predicates. */
export const stepArb = fc
  .tuple(
    axisArb,
    fc.constantFrom('a', 'b', 'c', '*', 'node()', 'k'),
    fc.constantFrom('', '[1]', '[last()]', '[b]', '[. > 2]', '[position() < 3]'),
  )
  .map(([axis, test, predicate]) => `${axis}::${test}${predicate}`);

/** Random location paths, absolute or relative, their steps joined by `/` or `//`. */
export const pathArb = fc
  .tuple(fc.boolean(), fc.array(stepArb, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([abs, steps, slashes]) => (abs ? '/' : '') + steps.join(slashes ? '//' : '/'));
