import type { SchemaNode } from '@yangkit/yang-schema';
import { NETCONF_MODULE } from './known-annotations';

/**
 * RFC 6241 section 7.1: the `<filter>` of `<get>` and `<get-config>` takes the unqualified XML
 * attributes `type` and `select`, which ietf-netconf declares with its `get-filter-element-attributes`
 * extension on the anyxml. The tree keeps them as the metadata `ietf-netconf:type` and
 * `ietf-netconf:select` (their JSON form), `select` with module names like a `yang:xpath1.0` value.
 */
export function isFilterAttribute(owner: SchemaNode | undefined, module: string, name: string): boolean {
  return (
    module === NETCONF_MODULE &&
    (name === 'type' || name === 'select') &&
    owner?.extensions.some(
      (e) => e.module === NETCONF_MODULE && e.name === 'get-filter-element-attributes',
    ) === true
  );
}
