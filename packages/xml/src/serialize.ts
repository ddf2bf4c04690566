import type { XmlElement } from './element.js';
import { escapeXmlAttribute, escapeXmlText } from './escape.js';

/** ` xmlns="uri"` / ` xmlns:p="uri"` for each binding (the implicit `xml` one left out). */
export function namespaceDeclarations(bindings: Iterable<readonly [prefix: string, uri: string]>): string {
  let out = '';
  for (const [prefix, uri] of bindings) {
    if (prefix === 'xml') continue;
    out +=
      prefix === '' ? ` xmlns="${escapeXmlAttribute(uri)}"` : ` xmlns:${prefix}="${escapeXmlAttribute(uri)}"`;
  }
  return out;
}

/**
 * Writes `element` and its subtree; the top element declares `inherited` (the bindings in scope
 * around it) besides its own declarations, so the text keeps its meaning on its own, prefixes
 * used only inside values (identityrefs, instance-identifiers) included. Iterative: nesting depth
 * cannot exhaust the stack.
 */
function write(element: XmlElement, inherited: ReadonlyMap<string, string>, out: string[]): void {
  // Close tags are pushed as strings between the elements still to write.
  const stack: (XmlElement | string)[] = [element];
  let top = true;
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    let open = `<${item.name}${namespaceDeclarations(item.declarations)}`;
    if (top) {
      for (const [prefix, uri] of inherited) {
        if (!item.declarations.has(prefix)) open += namespaceDeclarations([[prefix, uri]]);
      }
      top = false;
    }
    for (const a of item.attributes) open += ` ${a.name}="${escapeXmlAttribute(a.value)}"`;
    if (item.children.length === 0) {
      out.push(`${open}/>`);
      continue;
    }
    out.push(`${open}>`);
    stack.push(`</${item.name}>`);
    for (let i = item.children.length - 1; i >= 0; i--) {
      const child = item.children[i]!;
      stack.push(typeof child === 'string' ? escapeXmlText(child) : child);
    }
  }
}

/**
 * `element` as XML text, declaring on it every namespace in scope, so that it stands alone when
 * cut out of its document.
 */
export function outerXml(element: XmlElement): string {
  const out: string[] = [];
  write(element, element.scope.bindings(), out);
  return out.join('');
}

/**
 * The content of `element` as XML text, the namespaces in scope on `element` declared on each
 * child element (a prefix declared on `<rpc-reply>` and used inside `<data>` stays bound once the
 * content is cut out).
 */
export function innerXml(element: XmlElement): string {
  const out: string[] = [];
  const inherited = element.scope.bindings();
  for (const child of element.children) {
    if (typeof child === 'string') out.push(escapeXmlText(child));
    else write(child, inherited, out);
  }
  return out.join('');
}
