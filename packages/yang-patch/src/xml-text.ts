import type { NamespaceScope, XmlElement } from '@yangkit/yang-json-codec';

/** Characters XML 1.0 cannot carry at all (section 2.2), lone surrogates included. */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A string as a YANG `string` can hold it (RFC 7950 section 9.4: the characters of XML 1.0), the others
 * replaced by U+FFFD, so that any message can travel in either encoding.
 */
export function yangString(s: string): string {
  return s.replace(NOT_XML, '\uFFFD');
}

/** Escapes text content (XML 1.0 section 2.4); characters XML cannot carry become U+FFFD. */
export function escapeText(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

/** Escapes an attribute value written in double quotes (XML 1.0 section 3.3.3). */
export function escapeAttribute(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function declarations(bindings: Map<string, string>, outer: Map<string, string> | undefined): string {
  let out = '';
  for (const [prefix, uri] of bindings) {
    if (prefix === 'xml' || outer?.get(prefix) === uri) continue;
    out += prefix === '' ? ` xmlns="${escapeAttribute(uri)}"` : ` xmlns:${prefix}="${escapeAttribute(uri)}"`;
  }
  return out;
}

/**
 * Writes an element read by the codec's XML reader back as text, declaring on it every namespace binding in
 * scope, so the fragment keeps its meaning outside the document it came from (prefixes inside values such as
 * identityrefs and instance-identifiers included). Inner elements repeat only the declarations they made.
 */
export function elementToXml(element: XmlElement): string {
  const parts: string[] = [];
  // Iterative walk, so nesting depth cannot exhaust the stack; close tags are pushed as strings.
  const stack: (readonly [XmlElement, NamespaceScope | undefined] | string)[] = [[element, undefined]];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    const [e, outer] = item;
    const name = e.prefix === '' ? e.local : `${e.prefix}:${e.local}`;
    let open = `<${name}`;
    if (outer === undefined) open += declarations(e.scope.bindings(), undefined);
    else if (e.scope !== outer) open += declarations(e.scope.bindings(), outer.bindings());
    for (const a of e.attributes) {
      const an = a.prefix === '' ? a.local : `${a.prefix}:${a.local}`;
      open += ` ${an}="${escapeAttribute(a.value)}"`;
    }
    parts.push(`${open}>`);
    stack.push(`</${name}>`);
    for (let i = e.children.length - 1; i >= 0; i--) {
      const c = e.children[i]!;
      stack.push(typeof c === 'string' ? escapeText(c) : [c, e.scope]);
    }
  }
  return parts.join('');
}
