import { YangCompileError } from '../errors';

/** One step of a leafref path: a node identifier and the predicates written after it. */
export interface PathStep {
  readonly prefix: string | undefined;
  readonly name: string;
  /** `[key = current()/../x]` predicates: key name and the relative key path as written. */
  readonly predicates: readonly { readonly key: string; readonly value: string }[];
}

/** A parsed leafref `path` argument (RFC 7950 9.9.2, `path-arg` in section 14). */
export interface LeafrefPath {
  readonly absolute: boolean;
  /** Number of leading `../` steps of a relative path. */
  readonly up: number;
  readonly steps: readonly PathStep[];
}

const NAME = /^(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)/;
const KEY_EXPR =
  /^current\s*\(\s*\)\s*\/\s*(\.\.\s*\/\s*)+([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*(\s*\/\s*([A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*)*$/;

/**
 * Parses `path-arg = absolute-path / relative-path` with `path-predicate`s of the form
 * `[node-identifier = current()/../rel-path-keyexpr]`. Throws YangCompileError (code YANG_LEAFREF).
 */
export function parseLeafrefPath(text: string): LeafrefPath {
  const fail = (why: string): never => {
    throw new YangCompileError(`invalid leafref path "${text}": ${why}`, { code: 'YANG_LEAFREF' });
  };
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  skip();
  let absolute = false;
  let up = 0;
  if (text[i] === '/') absolute = true;
  else {
    while (text.startsWith('..', i)) {
      i += 2;
      skip();
      if (text[i] !== '/') fail('expected "/" after ".."');
      i++;
      skip();
      up++;
    }
    if (up === 0) fail('a relative path must start with "../"');
  }
  const steps: PathStep[] = [];
  for (;;) {
    if (absolute || steps.length > 0) {
      skip();
      if (i >= text.length) break;
      if (text[i] !== '/') fail(`unexpected "${text[i]}"`);
      i++;
      skip();
    }
    const m = NAME.exec(text.slice(i));
    if (!m) return fail('expected a node identifier');
    i += m[0].length;
    const predicates: { key: string; value: string }[] = [];
    for (;;) {
      skip();
      if (text[i] !== '[') break;
      const end = text.indexOf(']', i);
      if (end < 0) fail('unterminated predicate');
      const body = text.slice(i + 1, end);
      const eq = body.indexOf('=');
      if (eq < 0) fail('predicate without "="');
      const key = body.slice(0, eq).trim();
      const value = body.slice(eq + 1).trim();
      if (!NAME.test(key) || !KEY_EXPR.test(value)) fail(`invalid predicate "[${body}]"`);
      predicates.push({ key, value });
      i = end + 1;
    }
    steps.push({ prefix: m[1], name: m[2] ?? '', predicates });
    if (steps.length > 256) fail('too many steps');
    skip();
    if (i >= text.length) break;
  }
  return { absolute, up, steps };
}
