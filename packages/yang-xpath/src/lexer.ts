import { XPathSyntaxError } from './errors.js';

/** Token kinds of XPath 1.0 section 3.7 (ExprToken), after the disambiguation rules. */
export type TokenKind =
  | '('
  | ')'
  | '['
  | ']'
  | '.'
  | '..'
  | '@'
  | ','
  | '::'
  | 'name-test'
  | 'node-type'
  | 'operator'
  | 'function-name'
  | 'axis-name'
  | 'literal'
  | 'number'
  | 'variable'
  | 'eof';

/** One token; `value` is the operator, literal text, local name or `*`. */
export interface Token {
  readonly kind: TokenKind;
  readonly value: string;
  readonly prefix: string | undefined;
  readonly position: number;
  /** Source text of the token, for error messages. */
  readonly text: string;
}

const NODE_TYPES = new Set(['comment', 'text', 'processing-instruction', 'node']);
const OPERATOR_NAMES = new Set(['and', 'or', 'mod', 'div']);
// XML 1.0 NameStartChar / NameChar without ':', approximated with Unicode properties.
const NAME_START = /[\p{L}\p{Nl}_]/u;
const NAME_CHAR = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}._\-\u00B7]/u;

function isNameStart(ch: string | undefined): boolean {
  return ch !== undefined && NAME_START.test(ch);
}

function isWhitespace(code: number): boolean {
  // XPath 1.0 ExprWhitespace = S = (#x20 | #x9 | #xD | #xA)+
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * Splits an expression into tokens. Applies the disambiguation rules of XPath 1.0 section 3.7:
 * after a token that is not `@ :: ( [ ,` or an operator, `*` is the multiply operator and a name
 * must be an operator name; a name followed by `(` is a node type or function name, one followed by
 * `::` an axis name.
 */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = input.length;

  const fail = (message: string, at: number, text: string): never => {
    throw new XPathSyntaxError('SYNTAX', `${message} at position ${at}`, at, text);
  };

  // "preceding token" rule of section 3.7
  const operatorContext = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (prev === undefined) return false;
    return !(
      prev.kind === '@' ||
      prev.kind === '::' ||
      prev.kind === '(' ||
      prev.kind === '[' ||
      prev.kind === ',' ||
      prev.kind === 'operator'
    );
  };

  const push = (kind: TokenKind, value: string, start: number, prefix?: string): void => {
    tokens.push({ kind, value, prefix, position: start, text: input.slice(start, i) });
  };

  const readName = (): string => {
    const start = i;
    i += input.codePointAt(i)! > 0xffff ? 2 : 1;
    while (i < n) {
      const cp = input.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      if (!NAME_CHAR.test(ch)) break;
      i += ch.length;
    }
    return input.slice(start, i);
  };

  const peekNonSpace = (from: number): number => {
    let j = from;
    while (j < n && isWhitespace(input.charCodeAt(j))) j++;
    return j;
  };

  while (true) {
    while (i < n && isWhitespace(input.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    const c = input[i]!;
    const code = input.charCodeAt(i);
    switch (c) {
      case '(':
      case ')':
      case '[':
      case ']':
      case ',':
      case '@':
        i++;
        push(c, c, start);
        continue;
      case '|':
      case '+':
      case '=':
      case '-':
        i++;
        push('operator', c, start);
        continue;
      case '/':
        i += input[i + 1] === '/' ? 2 : 1;
        push('operator', input.slice(start, i), start);
        continue;
      case '!':
        if (input[i + 1] !== '=') fail("unexpected '!'", start, '!');
        i += 2;
        push('operator', '!=', start);
        continue;
      case '<':
      case '>':
        i += input[i + 1] === '=' ? 2 : 1;
        push('operator', input.slice(start, i), start);
        continue;
      case ':':
        if (input[i + 1] !== ':') fail("unexpected ':'", start, ':');
        i += 2;
        push('::', '::', start);
        continue;
      case '*':
        i++;
        if (operatorContext()) push('operator', '*', start);
        else push('name-test', '*', start);
        continue;
      case '"':
      case "'": {
        const close = input.indexOf(c, i + 1);
        if (close < 0) fail('unterminated string literal', start, input.slice(start, start + 20));
        i = close + 1;
        push('literal', input.slice(start + 1, close), start);
        continue;
      }
      case '$': {
        i++;
        if (!isNameStart(String.fromCodePoint(input.codePointAt(i) ?? 0x20))) {
          fail("expected a variable name after '$'", start, '$');
        }
        let local = readName();
        let prefix: string | undefined;
        if (input[i] === ':' && isNameStart(String.fromCodePoint(input.codePointAt(i + 1) ?? 0x20))) {
          i++;
          prefix = local;
          local = readName();
        }
        push('variable', local, start, prefix);
        continue;
      }
      case '.':
        if (input[i + 1] === '.') {
          i += 2;
          push('..', '..', start);
          continue;
        }
        if (!isDigit(input.charCodeAt(i + 1))) {
          i++;
          push('.', '.', start);
          continue;
        }
        break;
    }
    if (isDigit(code) || c === '.') {
      while (i < n && isDigit(input.charCodeAt(i))) i++;
      if (input[i] === '.') {
        i++;
        while (i < n && isDigit(input.charCodeAt(i))) i++;
      }
      push('number', input.slice(start, i), start);
      continue;
    }
    if (!isNameStart(String.fromCodePoint(input.codePointAt(i)!))) {
      fail(`unexpected character '${String.fromCodePoint(input.codePointAt(i)!)}'`, start, c);
    }
    let local = readName();
    if (operatorContext()) {
      if (!OPERATOR_NAMES.has(local)) {
        fail(`expected an operator but found '${local}'`, start, local);
      }
      push('operator', local, start);
      continue;
    }
    let prefix: string | undefined;
    if (input[i] === ':' && input[i + 1] !== ':') {
      if (input[i + 1] === '*') {
        i += 2;
        push('name-test', '*', start, local);
        continue;
      }
      if (!isNameStart(String.fromCodePoint(input.codePointAt(i + 1) ?? 0x20))) {
        fail(`expected a local name after '${local}:'`, start, input.slice(start, i + 1));
      }
      i++;
      prefix = local;
      local = readName();
    }
    const next = peekNonSpace(i);
    if (input[next] === '(') {
      if (prefix === undefined && NODE_TYPES.has(local)) push('node-type', local, start);
      else push('function-name', local, start, prefix);
      continue;
    }
    if (input[next] === ':' && input[next + 1] === ':') {
      if (prefix !== undefined) fail(`'${prefix}:${local}' is not an axis name`, start, `${prefix}:${local}`);
      push('axis-name', local, start);
      continue;
    }
    push('name-test', local, start, prefix);
  }
  tokens.push({ kind: 'eof', value: '', prefix: undefined, position: n, text: '' });
  return tokens;
}
