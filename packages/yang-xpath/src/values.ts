import type { XPathNavigator } from './navigator.js';

/**
 * The four XPath 1.0 object types (section 1): a node-set is an array of the caller's nodes in
 * document order without duplicates. Caller nodes must therefore not be arrays themselves.
 */
export type XPathValue<N> = number | string | boolean | N[];

/** Expands JavaScript's exponent notation, which XPath 1.0 section 4.2 forbids. */
function expandExponent(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign, lead, fraction = '', exp] = match;
  const digits = lead! + fraction;
  const pointAt = 1 + Number(exp);
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

/**
 * XPath 1.0 section 4.2 `string(number)`: NaN, Infinity and -Infinity by name, both zeros as `0`,
 * integers without a decimal point, others in decimal notation with the fewest digits that
 * identify the number, never with an exponent.
 */
export function numberToString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === 0) return '0';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  return expandExponent(String(value));
}

const NUMBER_SYNTAX = /^[\t\n\r ]*(-?(?:\d+(?:\.\d*)?|\.\d+))[\t\n\r ]*$/;

/**
 * XPath 1.0 section 4.4 `number(string)`: optional whitespace, an optional minus, a decimal
 * Number, optional whitespace; anything else (including `''`, `+1`, `1e3`) is NaN.
 */
export function stringToNumber(text: string): number {
  const match = NUMBER_SYNTAX.exec(text);
  return match === null ? Number.NaN : Number(match[1]);
}

/** XPath 1.0 section 4.2 `string(object)`. */
export function toStringValue<N>(value: XPathValue<N>, nav: XPathNavigator<N>): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberToString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const first = value[0];
  return first === undefined ? '' : nav.stringValue(first);
}

/** XPath 1.0 section 4.4 `number(object)`. */
export function toNumber<N>(value: XPathValue<N>, nav: XPathNavigator<N>): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return stringToNumber(value);
  const first = value[0];
  return first === undefined ? Number.NaN : stringToNumber(nav.stringValue(first));
}

/** XPath 1.0 section 4.3 `boolean(object)`. */
export function toBoolean<N>(value: XPathValue<N>): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value.length > 0;
  return value.length > 0;
}

/** Comparison operators of XPath 1.0 section 3.4. */
export type ComparisonOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

type Atom = string | number | boolean;

function compareAtoms(op: ComparisonOperator, a: Atom, b: Atom): boolean {
  if (op === '=' || op === '!=') {
    let equal: boolean;
    if (typeof a === 'boolean' || typeof b === 'boolean') equal = Boolean(atomBool(a)) === atomBool(b);
    else if (typeof a === 'number' || typeof b === 'number') equal = atomNum(a) === atomNum(b);
    else equal = a === b;
    return op === '=' ? equal : !equal;
  }
  const x = atomNum(a);
  const y = atomNum(b);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function atomBool(a: Atom): boolean {
  if (typeof a === 'boolean') return a;
  if (typeof a === 'number') return a !== 0 && !Number.isNaN(a);
  return a.length > 0;
}

function atomNum(a: Atom): number {
  if (typeof a === 'number') return a;
  if (typeof a === 'boolean') return a ? 1 : 0;
  return stringToNumber(a);
}

/**
 * Whether some pair of `left` and `right` numbers holds for an order operator: the least left and
 * the greatest right for `<` and `<=`, the reverse for `>` and `>=` (NaN holds for none).
 */
function numbersInOrder(op: ComparisonOperator, left: number[], right: number[]): boolean {
  const ascending = op === '<' || op === '<=';
  const l = extreme(left, ascending ? 'least' : 'greatest');
  const r = extreme(right, ascending ? 'greatest' : 'least');
  return l !== undefined && r !== undefined && compareAtoms(op, l, r);
}

/** The least or greatest of `numbers` that are not NaN; undefined when none is. */
function extreme(numbers: number[], which: 'least' | 'greatest'): number | undefined {
  let found: number | undefined;
  for (const n of numbers) {
    if (Number.isNaN(n)) continue;
    if (found === undefined || (which === 'least' ? n < found : n > found)) found = n;
  }
  return found;
}

/**
 * XPath 1.0 section 3.4: node-sets compare by the string-values of their nodes (existentially),
 * against a number by `number(string-value)`, against a boolean by `boolean(node-set)`.
 */
export function compareValues<N>(
  op: ComparisonOperator,
  left: XPathValue<N>,
  right: XPathValue<N>,
  nav: XPathNavigator<N>,
): boolean {
  const leftSet = Array.isArray(left);
  const rightSet = Array.isArray(right);
  if (!leftSet && !rightSet) return compareAtoms(op, left, right);
  if (leftSet && rightSet) {
    if (left.length === 0 || right.length === 0) return false;
    const rightValues = right.map((node) => nav.stringValue(node));
    if (op === '=') {
      const set = new Set(rightValues);
      return left.some((node) => set.has(nav.stringValue(node)));
    }
    // Linear rather than a test of every pair, which a client's filter over two big node-sets
    // could make cost the product of their sizes.
    if (op === '!=') {
      // some pair differs unless both sides hold one and the same string
      const only = rightValues[0]!;
      return rightValues.some((r) => r !== only) || left.some((node) => nav.stringValue(node) !== only);
    }
    // the order operators compare numbers: some pair is in order when the extremes are
    return numbersInOrder(
      op,
      left.map((node) => stringToNumber(nav.stringValue(node))),
      rightValues.map(stringToNumber),
    );
  }
  if (leftSet) {
    const atom = right as Atom;
    if (typeof atom === 'boolean') return compareAtoms(op, left.length > 0, atom);
    for (const node of left) {
      const l = nav.stringValue(node);
      if (compareAtoms(op, typeof atom === 'number' ? stringToNumber(l) : l, atom)) return true;
    }
    return false;
  }
  const set = right as N[];
  const atom = left as Atom;
  if (typeof atom === 'boolean') return compareAtoms(op, atom, set.length > 0);
  for (const node of set) {
    const r = nav.stringValue(node);
    if (compareAtoms(op, atom, typeof atom === 'number' ? stringToNumber(r) : r)) return true;
  }
  return false;
}
