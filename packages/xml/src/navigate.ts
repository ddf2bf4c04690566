import type { XmlElement } from './element.js';

/** The child elements of `element`, optionally only those with the local name `local` (and namespace `ns`). */
export function childElements(element: XmlElement, local?: string, ns?: string): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child === 'string') continue;
    if (local !== undefined && child.local !== local) continue;
    if (ns !== undefined && child.ns !== ns) continue;
    result.push(child);
  }
  return result;
}

/** The first child element with the local name `local` (and namespace `ns`), if any. */
export function childElement(element: XmlElement, local: string, ns?: string): XmlElement | undefined {
  for (const child of element.children) {
    if (typeof child !== 'string' && child.local === local && (ns === undefined || child.ns === ns))
      return child;
  }
  return undefined;
}

/** The character data directly inside `element` (the text of its child elements not included). */
export function textOf(element: XmlElement): string {
  let text = '';
  for (const child of element.children) if (typeof child === 'string') text += child;
  return text;
}
