import { type SourceLocation, YangSyntaxError } from '../errors';
import type { ParsedImport, ParsedInclude, ParsedModule, YangStatement } from './statement';
import { sub, subArg, subs } from './statement';
import { Tokenizer } from './tokenizer';

/** Options of {@link parseModule}. */
export interface ParseOptions {
  /** File name used in locations of errors and statements. */
  readonly file?: string;
  /** Largest accepted text in UTF-16 code units (default 16 MiB). */
  readonly maxSize?: number;
  /** Deepest accepted statement nesting (default 128). */
  readonly maxDepth?: number;
}

/** Default limits of the parser. */
export const PARSE_LIMITS = { maxSize: 16 * 1024 * 1024, maxDepth: 128 } as const;

/** Core YANG 1.1 keywords (RFC 7950 section 14); anything else must be a prefixed extension. */
const KEYWORDS = new Set([
  'action',
  'anydata',
  'anyxml',
  'argument',
  'augment',
  'base',
  'belongs-to',
  'bit',
  'case',
  'choice',
  'config',
  'contact',
  'container',
  'default',
  'description',
  'deviate',
  'deviation',
  'enum',
  'error-app-tag',
  'error-message',
  'extension',
  'feature',
  'fraction-digits',
  'grouping',
  'identity',
  'if-feature',
  'import',
  'include',
  'input',
  'key',
  'leaf',
  'leaf-list',
  'length',
  'list',
  'mandatory',
  'max-elements',
  'min-elements',
  'modifier',
  'module',
  'must',
  'namespace',
  'notification',
  'ordered-by',
  'organization',
  'output',
  'path',
  'pattern',
  'position',
  'prefix',
  'presence',
  'range',
  'reference',
  'refine',
  'require-instance',
  'revision',
  'revision-date',
  'rpc',
  'status',
  'submodule',
  'type',
  'typedef',
  'unique',
  'units',
  'uses',
  'value',
  'when',
  'yang-version',
  'yin-element',
]);

/** Core keywords that take no argument. */
const NO_ARGUMENT = new Set(['input', 'output']);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

interface Frame {
  keyword: string;
  prefix: string | undefined;
  argument: string | undefined;
  location: SourceLocation;
  children: YangStatement[];
}

function freezeStatement(f: Frame): YangStatement {
  const s: { -readonly [K in keyof YangStatement]: YangStatement[K] } = {
    keyword: f.keyword,
    substatements: f.children,
    location: f.location,
  };
  if (f.prefix !== undefined) s.prefix = f.prefix;
  if (f.argument !== undefined) s.argument = f.argument;
  return s;
}

/**
 * Parses the text of one YANG module or submodule (RFC 7950 section 6 statement grammar, YANG 1.0
 * and 1.1) into a statement tree. Throws {@link YangSyntaxError} with file, line and column.
 */
export function parseModule(text: string, options: ParseOptions = {}): ParsedModule {
  const file = options.file;
  const maxSize = options.maxSize ?? PARSE_LIMITS.maxSize;
  const maxDepth = options.maxDepth ?? PARSE_LIMITS.maxDepth;
  const at = (line: number, column: number): SourceLocation =>
    file === undefined ? { line, column } : { file, line, column };
  if (typeof text !== 'string') throw new YangSyntaxError('module text must be a string', at(1, 1));
  if (text.length > maxSize) {
    throw new YangSyntaxError(`module text is larger than ${maxSize} characters`, at(1, 1), {
      code: 'YANG_LIMIT',
    });
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let yang11 = false;
  const tokens = new Tokenizer(body, file, () => yang11);
  const stack: Frame[] = [];
  let root: YangStatement | undefined;

  try {
    for (;;) {
      const tok = tokens.next();
      if (tok === undefined) break;
      if (root !== undefined) {
        throw new YangSyntaxError('unexpected text after the end of the module', at(tok.line, tok.column));
      }
      if (tok.type === '}') {
        const frame = stack.pop();
        if (!frame) throw new YangSyntaxError('unexpected "}"', at(tok.line, tok.column));
        const done = freezeStatement(frame);
        const parent = stack[stack.length - 1];
        if (parent) parent.children.push(done);
        else root = done;
        continue;
      }
      if (tok.type !== 'string' || tok.quoted) {
        throw new YangSyntaxError(
          `expected a keyword, found "${tok.type === 'string' ? tok.value : tok.type}"`,
          at(tok.line, tok.column),
        );
      }
      const location = at(tok.line, tok.column);
      const colon = tok.value.indexOf(':');
      const prefix = colon < 0 ? undefined : tok.value.slice(0, colon);
      const keyword = colon < 0 ? tok.value : tok.value.slice(colon + 1);
      if (!IDENTIFIER.test(keyword) || (prefix !== undefined && !IDENTIFIER.test(prefix))) {
        throw new YangSyntaxError(`invalid keyword "${tok.value}"`, location);
      }
      if (prefix === undefined && !KEYWORDS.has(keyword)) {
        throw new YangSyntaxError(`unknown statement "${keyword}"`, location);
      }
      if (stack.length === 0 && prefix === undefined && keyword !== 'module' && keyword !== 'submodule') {
        throw new YangSyntaxError(`expected "module" or "submodule", found "${keyword}"`, location);
      }
      let next = tokens.next();
      let argument: string | undefined;
      if (next?.type === 'string') {
        argument = next.value;
        next = tokens.next();
      }
      if (prefix === undefined && argument === undefined && !NO_ARGUMENT.has(keyword)) {
        throw new YangSyntaxError(`statement "${keyword}" requires an argument`, location);
      }
      if (prefix === undefined && argument !== undefined && NO_ARGUMENT.has(keyword)) {
        throw new YangSyntaxError(`statement "${keyword}" takes no argument`, location);
      }
      if (keyword === 'yang-version' && prefix === undefined && argument === '1.1') yang11 = true;
      const frame: Frame = { keyword, prefix, argument, location, children: [] };
      if (next?.type === ';') {
        const done = freezeStatement(frame);
        const parent = stack[stack.length - 1];
        if (parent) parent.children.push(done);
        else root = done;
      } else if (next?.type === '{') {
        if (stack.length >= maxDepth) {
          throw new YangSyntaxError(`statements nested deeper than ${maxDepth}`, location, {
            code: 'YANG_LIMIT',
          });
        }
        stack.push(frame);
      } else if (next === undefined) {
        throw new YangSyntaxError(`unexpected end of input after "${tok.value}"`, tokens.here());
      } else {
        const what = next.type === 'string' ? next.value : next.type;
        throw new YangSyntaxError(
          `expected ";" or "{" after "${tok.value}", found "${what}"`,
          at(next.line, next.column),
        );
      }
    }
    if (stack.length > 0) {
      throw new YangSyntaxError(
        `unexpected end of input: "${stack[stack.length - 1]?.keyword}" is not closed`,
        tokens.here(),
      );
    }
    if (root === undefined)
      throw new YangSyntaxError('no module or submodule statement found', tokens.here());
  } catch (e) {
    // Name the module in errors found after its first statement was read.
    const name = stack[0]?.argument;
    if (e instanceof YangSyntaxError && e.module === undefined && name !== undefined && e.location) {
      throw new YangSyntaxError(e.detail, e.location, {
        code: e.code === 'YANG_LIMIT' ? 'YANG_LIMIT' : 'YANG_SYNTAX',
        module: name,
      });
    }
    throw e;
  }
  return describeModule(root, text, file);
}

function describeModule(root: YangStatement, source: string, file: string | undefined): ParsedModule {
  const kind = root.keyword === 'submodule' ? 'submodule' : 'module';
  const name = root.argument ?? '';
  const fail = (message: string, s: YangStatement): never => {
    throw new YangSyntaxError(message, s.location, { module: name });
  };
  if (!IDENTIFIER.test(name)) fail(`invalid ${kind} name "${name}"`, root);
  const version = subArg(root, 'yang-version') ?? '1';
  if (version !== '1' && version !== '1.1') fail(`unsupported yang-version "${version}"`, root);
  let prefix: string | undefined;
  let belongsTo: string | undefined;
  if (kind === 'module') {
    prefix = subArg(root, 'prefix');
    if (prefix === undefined) fail(`module "${name}" has no prefix statement`, root);
    if (subArg(root, 'namespace') === undefined) fail(`module "${name}" has no namespace statement`, root);
  } else {
    const b = sub(root, 'belongs-to');
    if (!b) return fail(`submodule "${name}" has no belongs-to statement`, root);
    belongsTo = b.argument;
    prefix = subArg(b, 'prefix');
    if (prefix === undefined) fail(`belongs-to in "${name}" has no prefix statement`, b);
  }
  const imports: ParsedImport[] = subs(root, 'import').map((s) => {
    const p = subArg(s, 'prefix');
    if (p === undefined) return fail(`import of "${s.argument}" has no prefix`, s);
    const rev = subArg(s, 'revision-date');
    return rev === undefined
      ? { module: s.argument ?? '', prefix: p, location: s.location }
      : { module: s.argument ?? '', prefix: p, revision: rev, location: s.location };
  });
  const includes: ParsedInclude[] = subs(root, 'include').map((s) => {
    const rev = subArg(s, 'revision-date');
    return rev === undefined
      ? { submodule: s.argument ?? '', location: s.location }
      : { submodule: s.argument ?? '', revision: rev, location: s.location };
  });
  let revision: string | undefined;
  for (const r of subs(root, 'revision'))
    if (revision === undefined || (r.argument ?? '') > revision) revision = r.argument;
  const namespace = subArg(root, 'namespace');
  const out: { -readonly [K in keyof ParsedModule]: ParsedModule[K] } = {
    kind,
    name,
    yangVersion: version as '1' | '1.1',
    prefix: prefix ?? '',
    imports,
    includes,
    statement: root,
    source,
  };
  if (revision !== undefined) out.revision = revision;
  if (namespace !== undefined) out.namespace = namespace;
  if (belongsTo !== undefined) out.belongsTo = belongsTo;
  if (file !== undefined) out.file = file;
  return out;
}
