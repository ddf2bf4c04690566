import { YangTypeError } from './errors';

/** A predicate of an instance-identifier step (RFC 7950 9.13, ABNF in section 14). */
export type InstanceIdentifierPredicate =
  | { readonly kind: 'key'; readonly prefix?: string; readonly name: string; readonly value: string }
  | { readonly kind: 'leaf-list'; readonly value: string }
  | { readonly kind: 'position'; readonly position: number };

/** One "/prefix:name[...]" step of an instance-identifier. */
export interface InstanceIdentifierStep {
  readonly prefix?: string;
  readonly name: string;
  readonly predicates: readonly InstanceIdentifierPredicate[];
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const POSITIVE = /[1-9][0-9]*/y;

/**
 * Parses an instance-identifier (RFC 7950 9.13, section 14):
 *   instance-identifier = 1*("/" (node-identifier [1*key-predicate / leaf-list-predicate / pos]))
 *   key-predicate       = "[" *WSP node-identifier *WSP "=" *WSP quoted-string *WSP "]"
 *   leaf-list-predicate = "[" *WSP "." *WSP "=" *WSP quoted-string *WSP "]"
 *   pos                 = "[" *WSP positive-integer-value *WSP "]"
 * Prefixes are optional here: the XML encoding needs them on every step, the JSON encoding (RFC 7951 6.11)
 * only where the module changes. Throws YangTypeError naming the offending offset.
 */
export function parseInstanceIdentifier(text: string): InstanceIdentifierStep[] {
  const p = new Scanner(text);
  const steps: InstanceIdentifierStep[] = [];
  do {
    p.expect('/');
    const { prefix, name } = p.nodeIdentifier();
    const predicates: InstanceIdentifierPredicate[] = [];
    while (p.peek() === '[') {
      p.pos++;
      p.wsp();
      predicates.push(p.predicate());
      p.wsp();
      p.expect(']');
    }
    const kinds = new Set(predicates.map((x) => x.kind));
    if (kinds.size > 1 || (predicates.length > 1 && !kinds.has('key'))) {
      p.fail('a step takes key predicates, one leaf-list predicate or one position, not a mix');
    }
    steps.push(prefix === undefined ? { name, predicates } : { prefix, name, predicates });
  } while (p.pos < text.length);
  return steps;
}

class Scanner {
  pos = 0;
  constructor(private readonly text: string) {}

  peek(): string | undefined {
    return this.text[this.pos];
  }

  expect(c: string): void {
    if (this.text[this.pos] !== c) this.fail(`expected "${c}"`);
    this.pos++;
  }

  wsp(): void {
    while (this.text[this.pos] === ' ' || this.text[this.pos] === '\t') this.pos++;
  }

  identifier(): string {
    IDENTIFIER.lastIndex = this.pos;
    const m = IDENTIFIER.exec(this.text);
    if (!m) this.fail('expected an identifier');
    this.pos += m![0].length;
    return m![0];
  }

  nodeIdentifier(): { prefix?: string; name: string } {
    const first = this.identifier();
    if (this.peek() !== ':') return { name: first };
    this.pos++;
    return { prefix: first, name: this.identifier() };
  }

  predicate(): InstanceIdentifierPredicate {
    const c = this.peek();
    if (c !== undefined && c >= '0' && c <= '9') {
      POSITIVE.lastIndex = this.pos;
      const m = POSITIVE.exec(this.text);
      if (!m) this.fail('a position must be a positive integer');
      this.pos += m![0].length;
      const position = Number(m![0]);
      if (!Number.isSafeInteger(position)) this.fail('position is too large');
      return { kind: 'position', position };
    }
    if (c === '.') {
      this.pos++;
      return { kind: 'leaf-list', value: this.assignment() };
    }
    const { prefix, name } = this.nodeIdentifier();
    const value = this.assignment();
    return prefix === undefined ? { kind: 'key', name, value } : { kind: 'key', prefix, name, value };
  }

  /** *WSP "=" *WSP quoted-string, where a quoted string holds no quote of its own kind (XPath literal). */
  assignment(): string {
    this.wsp();
    this.expect('=');
    this.wsp();
    const q = this.peek();
    if (q !== '"' && q !== "'") this.fail('expected a quoted string');
    const end = this.text.indexOf(q!, this.pos + 1);
    if (end < 0) this.fail('unterminated quoted string');
    const value = this.text.slice(this.pos + 1, end);
    this.pos = end + 1;
    return value;
  }

  fail(reason: string): never {
    throw new YangTypeError(`instance-identifier: ${reason} at offset ${this.pos}`);
  }
}
