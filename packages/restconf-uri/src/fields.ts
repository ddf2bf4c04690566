import { RestconfUriError } from './errors.js';
import { isIdentifier } from './identifier.js';

/**
 * One node of a `fields` selection tree (RFC 8040 section 4.8.3). `module` is present only when
 * written; an empty `children` array selects the whole subtree of the node.
 */
export interface FieldsNode {
  readonly module?: string;
  readonly name: string;
  readonly children: readonly FieldsNode[];
}

/** Limits of {@link parseFields}. */
export interface FieldsLimits {
  /** Longest accepted expression. Default 8192. */
  readonly maxLength?: number;
  /** Deepest tree (path steps plus nesting). Default 64. */
  readonly maxDepth?: number;
  /** Most identifiers in the expression. Default 1024. */
  readonly maxNodes?: number;
}

interface MutableNode {
  module?: string;
  name: string;
  children: MutableNode[];
}

const ID_START = /[A-Za-z_]/;
const ID_CHAR = /[A-Za-z0-9_.-]/;

/**
 * Parses a `fields` value (already percent-decoded) into a selection tree.
 *
 * Grammar (RFC 8040 section 4.8.3, read so that `;` may also follow a `)`, as in
 * `a(b);c(d)`, which servers accept):
 * ```
 * fields-expr = item *(";" item)
 * item        = path ["(" fields-expr ")"]
 * path        = api-identifier *("/" api-identifier)
 * ```
 * Paths that share a prefix merge (`a/b;a/c` equals `a(b;c)`); selecting a node whole wins over
 * selecting parts of it (`a;a/b` equals `a`).
 *
 * @throws {RestconfUriError} `FIELDS_SYNTAX` naming the offset and what was expected
 */
export function parseFields(text: string, limits: FieldsLimits = {}): FieldsNode[] {
  const maxLength = limits.maxLength ?? 8192;
  if (text.length > maxLength) {
    throw new RestconfUriError(
      'URI_TOO_LONG',
      `fields of ${text.length} characters exceeds the limit of ${maxLength}`,
      {
        badElement: 'fields',
      },
    );
  }
  const parser = new FieldsParser(text, limits.maxDepth ?? 64, limits.maxNodes ?? 1024);
  const roots: MutableNode[] = [];
  parser.expr(roots, 0);
  if (parser.pos < text.length)
    parser.fail(text[parser.pos] === ')' ? "unbalanced ')'" : "expected ';' or '('");
  return roots;
}

class FieldsParser {
  pos = 0;
  private nodes = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly maxNodes: number,
  ) {}

  fail(what: string): never {
    const found = this.pos < this.text.length ? `'${this.text[this.pos]}'` : 'end of input';
    throw new RestconfUriError(
      'FIELDS_SYNTAX',
      `invalid fields expression: ${what} at offset ${this.pos}, found ${found}`,
      { offset: this.pos, badValue: this.text, badElement: 'fields' },
    );
  }

  expr(into: MutableNode[], depth: number): void {
    for (;;) {
      this.item(into, depth);
      if (this.text[this.pos] !== ';') return;
      this.pos++;
    }
  }

  private item(into: MutableNode[], depth: number): void {
    // Build the path as a chain, then merge the chain into the siblings.
    const head = this.identifier(depth);
    let tail = head;
    let level = depth + 1;
    while (this.text[this.pos] === '/') {
      this.pos++;
      const next = this.identifier(level);
      tail.children.push(next);
      tail = next;
      level++;
    }
    if (this.text[this.pos] === '(') {
      this.pos++;
      this.expr(tail.children, level);
      if (this.text[this.pos] !== ')') this.fail("expected ')'");
      this.pos++;
    }
    mergeInto(into, head);
  }

  private identifier(depth: number): MutableNode {
    if (depth >= this.maxDepth) this.fail(`selection deeper than ${this.maxDepth} levels`);
    if (++this.nodes > this.maxNodes) this.fail(`more than ${this.maxNodes} identifiers`);
    const first = this.name();
    if (this.text[this.pos] !== ':') return { name: first, children: [] };
    this.pos++;
    return { module: first, name: this.name(), children: [] };
  }

  private name(): string {
    const start = this.pos;
    if (!ID_START.test(this.text[this.pos] ?? '')) this.fail('expected an identifier');
    this.pos++;
    while (this.pos < this.text.length && ID_CHAR.test(this.text[this.pos]!)) this.pos++;
    return this.text.slice(start, this.pos);
  }
}

function mergeInto(siblings: MutableNode[], node: MutableNode): void {
  const same = siblings.find((s) => s.name === node.name && s.module === node.module);
  if (same === undefined) {
    siblings.push(node);
    return;
  }
  if (same.children.length === 0) return;
  if (node.children.length === 0) {
    same.children = [];
    return;
  }
  for (const child of node.children) mergeInto(same.children, child);
}

/**
 * Formats a selection tree as a `fields` value (not percent-encoded): a single child is joined
 * with `/`, several with `( ; )`, so `parseFields(formatFields(t))` equals `t` for any tree
 * without duplicate siblings.
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for a name that is not an identifier
 */
export function formatFields(nodes: readonly FieldsNode[]): string {
  return nodes.map(formatNode).join(';');
}

function formatNode(node: FieldsNode): string {
  if ((node.module !== undefined && !isIdentifier(node.module)) || !isIdentifier(node.name)) {
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `fields node '${node.name}' is not [module:]identifier`,
      {
        badValue: node.name,
      },
    );
  }
  const head = node.module === undefined ? node.name : `${node.module}:${node.name}`;
  const [only, ...more] = node.children;
  if (only === undefined) return head;
  if (more.length === 0) return `${head}/${formatNode(only)}`;
  return `${head}(${node.children.map(formatNode).join(';')})`;
}
