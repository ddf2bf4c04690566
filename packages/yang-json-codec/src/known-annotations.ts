/**
 * Metadata the codec knows without an `md:annotation` in the schema, because its XML form predates
 * RFC 7952 or the RESTCONF server adds it:
 * - `ietf-netconf-with-defaults:default` (RFC 6243 section 6 / RFC 8040 section 4.8.9): XML attribute
 *   `wd:default` in `urn:ietf:params:xml:ns:netconf:default:1.0`, JSON `true`;
 * - `ietf-restconf:etag` and `ietf-restconf:last-modified` (RFC 8040 sections 3.4.1.2-3.4.1.3: the entity
 *   tag and timestamp of a data resource, reported per node with the `with-etag`/`with-last-modified`
 *   query parameters), strings in the ietf-restconf namespace;
 * - the attributes of edit-config content, accepted only with the `editAttributes` decode option:
 *   `ietf-netconf:operation` (RFC 6241 section 7.2, `nc:operation` in the NETCONF base namespace) and
 *   `yang:insert`, `yang:key`, `yang:value` (RFC 7950 section 7.8.6, in the YANG XML namespace).
 */
export interface KnownAnnotation {
  readonly module: string;
  readonly name: string;
  /** XML namespace of the attribute. */
  readonly namespace: string;
  /** Prefix the XML encoder declares for it. */
  readonly prefix: string;
  /** JSON type of the value. */
  readonly json: 'boolean' | 'string';
  /** An edit-config attribute (see {@link EDIT_ANNOTATIONS}). */
  readonly edit?: true;
}

/** Module name under which the RFC 7950 section 7.8.6 attributes are kept (their XML prefix). */
export const YANG_ATTRIBUTES_MODULE = 'yang';
/** Module name of the RFC 6241 `operation` attribute. */
export const NETCONF_MODULE = 'ietf-netconf';

/** Every known annotation. */
export const KNOWN_ANNOTATIONS: readonly KnownAnnotation[] = [
  {
    module: 'ietf-netconf-with-defaults',
    name: 'default',
    namespace: 'urn:ietf:params:xml:ns:netconf:default:1.0',
    prefix: 'wd',
    json: 'boolean',
  },
  {
    module: 'ietf-restconf',
    name: 'etag',
    namespace: 'urn:ietf:params:xml:ns:yang:ietf-restconf',
    prefix: 'rc',
    json: 'string',
  },
  {
    module: 'ietf-restconf',
    name: 'last-modified',
    namespace: 'urn:ietf:params:xml:ns:yang:ietf-restconf',
    prefix: 'rc',
    json: 'string',
  },
  ...(['insert', 'key', 'value'] as const).map(
    (name): KnownAnnotation => ({
      module: YANG_ATTRIBUTES_MODULE,
      name,
      namespace: 'urn:ietf:params:xml:ns:yang:1',
      prefix: 'yang',
      json: 'string',
      edit: true,
    }),
  ),
  {
    module: NETCONF_MODULE,
    name: 'operation',
    namespace: 'urn:ietf:params:xml:ns:netconf:base:1.0',
    prefix: 'nc',
    json: 'string',
    edit: true,
  },
];

const byQName = new Map(KNOWN_ANNOTATIONS.map((a) => [`${a.module}:${a.name}`, a]));
const byXml = new Map(KNOWN_ANNOTATIONS.map((a) => [`${a.namespace} ${a.name}`, a]));

/** The known annotation `module:name`, if any. */
export function knownAnnotation(module: string, name: string): KnownAnnotation | undefined {
  return byQName.get(`${module}:${name}`);
}

/** The known annotation an XML attribute `{namespace}name` stands for, if any. */
export function knownXmlAnnotation(namespace: string, name: string): KnownAnnotation | undefined {
  return byXml.get(`${namespace} ${name}`);
}

/** The module that defines the with-defaults `default` annotation and its value meaning "is a default". */
export const WITH_DEFAULTS_MODULE = 'ietf-netconf-with-defaults';
