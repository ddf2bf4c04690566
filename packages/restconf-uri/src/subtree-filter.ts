import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import { RestconfUriError } from './errors.js';
import type { ResolvedApiPath } from './resolve.js';

/**
 * Builds the NETCONF subtree filter (RFC 6241 section 6) that selects the resource a resolved
 * path names: one containment node per step, list keys as content match nodes (which select
 * the whole matching entry, section 6.2.5), a leaf-list entry as a content match node, and an
 * empty selection node for the target. A default namespace is declared on the first element
 * and wherever the namespace changes.
 *
 * Returns the element to place inside `<filter type="subtree">`; `""` for the empty path
 * (the whole datastore, i.e. no filter).
 *
 * ```xml
 * <jukebox xmlns="http://example.com/ns/example-jukebox"><library><artist><name>Foo</name></artist></library></jukebox>
 * ```
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for values XML 1.0 cannot carry
 */
export function toSubtreeFilter(resolved: ResolvedApiPath): string {
  let open = '';
  let close = '';
  let parentNamespace: string | undefined;
  resolved.steps.forEach((step, index) => {
    const { name, namespace } = step.node;
    const xmlns = namespace === parentNamespace ? '' : ` xmlns="${escapeXmlAttribute(namespace)}"`;
    parentNamespace = namespace;
    const last = index === resolved.steps.length - 1;
    if (step.value !== undefined) {
      open += `<${name}${xmlns}>${valueText(step.value)}`;
      close = `</${name}>${close}`;
      return;
    }
    const keys = (step.keys ?? []).map((k) => `<${k.name}>${valueText(k.value)}</${k.name}>`).join('');
    if (last && keys === '') {
      open += `<${name}${xmlns}/>`;
      return;
    }
    open += `<${name}${xmlns}>${keys}`;
    close = `</${name}>${close}`;
  });
  return open + close;
}

/** A key or leaf-list value as content; one XML 1.0 cannot carry is this package's format error. */
function valueText(value: string): string {
  try {
    return escapeXmlText(value);
  } catch (error) {
    throw new RestconfUriError(
      'FORMAT_UNREPRESENTABLE',
      `value ${JSON.stringify(value)} cannot be written in XML 1.0`,
      {
        badValue: value,
        cause: error,
      },
    );
  }
}
