import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import type { PathStep } from '@yangkit/yang-json-codec';

/**
 * The elements of a data path around `inner`, each list entry with its keys and a leaf-list entry
 * with its value, a default namespace declared wherever the module changes:
 * `<jukebox xmlns="ns"><library><artist><name>Foo</name>inner</artist></library></jukebox>`.
 * With an empty `inner` this is the subtree filter selecting the path's node (RFC 6241 section
 * 6: containment nodes, keys as content match nodes, the last node a selection node); around an
 * action element it is the content of `<action>` (RFC 7950 section 7.15.2).
 */
export function pathXml(steps: readonly PathStep[], inner: string): string {
  let open = '';
  let close = '';
  let ns: string | undefined;
  for (const step of steps) {
    const s = step.schema;
    const decl = s.namespace === ns ? '' : ` xmlns="${escapeXmlAttribute(s.namespace)}"`;
    ns = s.namespace;
    open += `<${s.name}${decl}>`;
    if (step.value !== undefined) open += escapeXmlText(step.value);
    for (const k of step.keys ?? []) open += `<${k.name}>${escapeXmlText(k.value)}</${k.name}>`;
    close = `</${s.name}>${close}`;
  }
  return open + inner + close;
}
