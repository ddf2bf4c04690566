import { AXES, type Axis, type BinaryOperator, type Expr, type NodeTest, type Step } from './ast.js';
import { XPathSyntaxError } from './errors.js';
import { type Token, tokenize } from './lexer.js';

/** Limits that keep parsing bounded on hostile input. */
export interface ParseOptions {
  /** Longest accepted expression in UTF-16 code units (default 65536). */
  readonly maxLength?: number;
  /** Deepest accepted nesting of parentheses, predicates, arguments and operators (default 256). */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_LENGTH = 65_536;
const DEFAULT_MAX_DEPTH = 256;
const AXIS_SET: ReadonlySet<string> = new Set(AXES);

const SELF_NODE: NodeTest = { kind: 'node' };

function describe(token: Token): string {
  return token.kind === 'eof' ? 'end of expression' : `'${token.text}'`;
}

/**
 * Parses an XPath 1.0 expression (W3C XPath 1.0 section 3, grammar rules [1]-[39]) into an {@link Expr}.
 * Throws {@link XPathSyntaxError} with the position of the offending token for any other input.
 */
export function parseXPath(expression: string, options: ParseOptions = {}): Expr {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  if (expression.length > maxLength) {
    throw new XPathSyntaxError(
      'TOO_LONG',
      `expression is ${expression.length} characters long, the limit is ${maxLength}`,
      maxLength,
      '',
    );
  }
  return new Parser(tokenize(expression), options.maxDepth ?? DEFAULT_MAX_DEPTH).parseAll();
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly maxDepth: number,
  ) {}

  parseAll(): Expr {
    const expr = this.parseExpr();
    const token = this.peek();
    if (token.kind !== 'eof') this.unexpected(token);
    return expr;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'eof') this.index++;
    return token;
  }

  private unexpected(token: Token, expected?: string): never {
    const what = expected === undefined ? '' : `, expected ${expected}`;
    throw new XPathSyntaxError(
      'SYNTAX',
      `unexpected ${describe(token)} at position ${token.position}${what}`,
      token.position,
      token.text,
    );
  }

  private expect(kind: Token['kind'], expected: string): Token {
    const token = this.peek();
    if (token.kind !== kind) this.unexpected(token, expected);
    return this.next();
  }

  private isOperator(value: string): boolean {
    const token = this.peek();
    return token.kind === 'operator' && token.value === value;
  }

  private enter(token: Token): void {
    if (++this.depth > this.maxDepth) {
      throw new XPathSyntaxError(
        'TOO_DEEP',
        `expression nests deeper than ${this.maxDepth} at position ${token.position}`,
        token.position,
        token.text,
      );
    }
  }

  /** [14] Expr ::= OrExpr, with the binary levels [21]-[26] by precedence climbing. */
  private parseExpr(): Expr {
    this.enter(this.peek());
    const expr = this.parseBinary(0);
    this.depth--;
    return expr;
  }

  private static readonly LEVELS: readonly (readonly BinaryOperator[])[] = [
    ['or'],
    ['and'],
    ['=', '!='],
    ['<', '<=', '>', '>='],
    ['+', '-'],
    ['*', 'div', 'mod'],
  ];

  private parseBinary(level: number): Expr {
    const operators = Parser.LEVELS[level];
    if (operators === undefined) return this.parseUnary();
    let left = this.parseBinary(level + 1);
    let chain = 0;
    while (true) {
      const token = this.peek();
      if (token.kind !== 'operator' || !operators.includes(token.value as BinaryOperator)) {
        this.depth -= chain;
        return left;
      }
      this.next();
      // a long operator chain makes a deep (left-leaning) tree: count it against the depth limit
      this.enter(token);
      chain++;
      const right = this.parseBinary(level + 1);
      left = {
        type: 'Binary',
        operator: token.value as BinaryOperator,
        left,
        right,
        position: left.position,
      };
    }
  }

  /** [27] UnaryExpr ::= UnionExpr | '-' UnaryExpr */
  private parseUnary(): Expr {
    const token = this.peek();
    if (token.kind === 'operator' && token.value === '-') {
      this.next();
      this.enter(token);
      const operand = this.parseUnary();
      this.depth--;
      return { type: 'Negate', operand, position: token.position };
    }
    return this.parseUnion();
  }

  /** [18] UnionExpr ::= PathExpr | UnionExpr '|' PathExpr */
  private parseUnion(): Expr {
    let left = this.parsePathExpr();
    let chain = 0;
    while (this.isOperator('|')) {
      const token = this.next();
      this.enter(token);
      chain++;
      const right = this.parsePathExpr();
      left = { type: 'Binary', operator: '|', left, right, position: left.position };
    }
    this.depth -= chain;
    return left;
  }

  private startsStep(token: Token): boolean {
    return (
      token.kind === 'name-test' ||
      token.kind === 'node-type' ||
      token.kind === 'axis-name' ||
      token.kind === '@' ||
      token.kind === '.' ||
      token.kind === '..'
    );
  }

  /** [19] PathExpr ::= LocationPath | FilterExpr | FilterExpr ('/' | '//') RelativeLocationPath */
  private parsePathExpr(): Expr {
    const token = this.peek();
    if (token.kind === 'operator' && (token.value === '/' || token.value === '//')) {
      this.next();
      const steps: Step[] = [];
      if (token.value === '//') {
        steps.push(this.descendantOrSelf(token.position));
        this.parseRelative(steps);
      } else if (this.startsStep(this.peek())) {
        this.parseRelative(steps);
      }
      return { type: 'Path', absolute: true, steps, position: token.position };
    }
    if (this.startsStep(token)) {
      const steps: Step[] = [];
      this.parseRelative(steps);
      return { type: 'Path', absolute: false, steps, position: token.position };
    }
    const start = token.position; // a parenthesized primary starts at its '('
    const primary = this.parsePrimary();
    const predicates = this.parsePredicates();
    const steps: Step[] = [];
    const slash = this.peek();
    if (slash.kind === 'operator' && (slash.value === '/' || slash.value === '//')) {
      this.next();
      if (slash.value === '//') steps.push(this.descendantOrSelf(slash.position));
      this.parseRelative(steps);
    }
    if (predicates.length === 0 && steps.length === 0) return primary;
    return { type: 'Filter', primary, predicates, steps, position: start };
  }

  private descendantOrSelf(position: number): Step {
    return { axis: 'descendant-or-self', test: SELF_NODE, predicates: [], position };
  }

  /** [3] RelativeLocationPath ::= Step | RelativeLocationPath ('/' | '//') Step */
  private parseRelative(steps: Step[]): void {
    steps.push(this.parseStep());
    while (true) {
      const token = this.peek();
      if (token.kind !== 'operator' || (token.value !== '/' && token.value !== '//')) return;
      this.next();
      if (token.value === '//') steps.push(this.descendantOrSelf(token.position));
      steps.push(this.parseStep());
    }
  }

  /** [4] Step ::= AxisSpecifier NodeTest Predicate* | AbbreviatedStep */
  private parseStep(): Step {
    const token = this.peek();
    if (token.kind === '.') {
      this.next();
      return { axis: 'self', test: SELF_NODE, predicates: [], position: token.position };
    }
    if (token.kind === '..') {
      this.next();
      return { axis: 'parent', test: SELF_NODE, predicates: [], position: token.position };
    }
    let axis: Axis = 'child';
    if (token.kind === '@') {
      this.next();
      axis = 'attribute';
    } else if (token.kind === 'axis-name') {
      if (!AXIS_SET.has(token.value)) {
        throw new XPathSyntaxError(
          'SYNTAX',
          `unknown axis '${token.value}' at position ${token.position}`,
          token.position,
          token.text,
        );
      }
      this.next();
      this.expect('::', "'::'");
      axis = token.value as Axis;
    }
    const test = this.parseNodeTest();
    return { axis, test, predicates: this.parsePredicates(), position: token.position };
  }

  /** [7] NodeTest ::= NameTest | NodeType '(' ')' | 'processing-instruction' '(' Literal ')' */
  private parseNodeTest(): NodeTest {
    const token = this.peek();
    if (token.kind === 'name-test') {
      this.next();
      return { kind: 'name', prefix: token.prefix, localName: token.value };
    }
    if (token.kind === 'node-type') {
      this.next();
      this.expect('(', "'('");
      if (token.value === 'processing-instruction') {
        const literal = this.peek().kind === 'literal' ? this.next().value : undefined;
        this.expect(')', "')'");
        return { kind: 'processing-instruction', literal };
      }
      this.expect(')', "')'");
      return { kind: token.value as 'node' | 'text' | 'comment' };
    }
    return this.unexpected(token, 'a node test');
  }

  /** [8] Predicate ::= '[' PredicateExpr ']' */
  private parsePredicates(): Expr[] {
    const predicates: Expr[] = [];
    while (this.peek().kind === '[') {
      this.next();
      predicates.push(this.parseExpr());
      this.expect(']', "']'");
    }
    return predicates;
  }

  /** [15] PrimaryExpr ::= VariableReference | '(' Expr ')' | Literal | Number | FunctionCall */
  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'variable':
        return { type: 'Variable', prefix: token.prefix, localName: token.value, position: token.position };
      case 'literal':
        return { type: 'Literal', value: token.value, position: token.position };
      case 'number':
        return { type: 'Number', value: Number(token.value), position: token.position };
      case '(': {
        const inner = this.parseExpr();
        this.expect(')', "')'");
        return inner;
      }
      case 'function-name': {
        this.expect('(', "'('");
        const args: Expr[] = [];
        if (this.peek().kind !== ')') {
          args.push(this.parseExpr());
          while (this.peek().kind === ',') {
            this.next();
            args.push(this.parseExpr());
          }
        }
        this.expect(')', "')' or ','");
        return {
          type: 'FunctionCall',
          prefix: token.prefix,
          localName: token.value,
          args,
          position: token.position,
        };
      }
      default:
        return this.unexpected(token, 'an expression');
    }
  }
}
