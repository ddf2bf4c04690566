import { type XmlNode, type XPathNavigator, xmlNavigator } from '../src/index.js';

/**
 * The XML navigator with a key index of its own (`childrenByKey`, found by a scan here), which
 * notes each look-up on `asked` as `element[key=value]`.
 */
export function keyIndexNavigator(asked: string[]): XPathNavigator<XmlNode> {
  return {
    ...xmlNavigator,
    childrenByKey(node, element, key, value) {
      asked.push(`${element.localName}[${key.localName}=${value}]`);
      return node.children.filter(
        (c) =>
          c.name === element.localName &&
          c.children.some((k) => k.name === key.localName && k.value === value),
      );
    },
  };
}
