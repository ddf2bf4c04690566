/** Name of the module that defines the entity-tag and last-modified annotations. */
export const METADATA_MODULE = 'yangkit-restconf-metadata';

/** Namespace of {@link METADATA_MODULE}. */
export const METADATA_NS = 'urn:yangkit:params:xml:ns:yang:yangkit-restconf-metadata';

/**
 * The YANG text of {@link METADATA_MODULE}: the RFC 7952 annotations that the spec's `with-etag`
 * and `with-last-modified` query parameters add to the data a GET answers. Give it to the schema
 * loader beside the handler's other modules; without it those parameters are refused.
 */
export const METADATA_YANG = `module yangkit-restconf-metadata {
  yang-version 1.1;
  namespace "${METADATA_NS}";
  prefix ykmd;

  import ietf-yang-metadata {
    prefix md;
  }
  import ietf-yang-types {
    prefix yang;
  }

  organization "yangkit";
  description
    "Entity tags and timestamps (RFC 8040 sections 3.4.1 and 3.5) in the
     body of a RESTCONF response, as annotations of the data nodes it
     holds.";

  revision 2026-11-22 {
    description "Initial revision.";
  }

  md:annotation etag {
    type string;
    description
      "The entity tag of the resource, as its ETag header field
       carries it (with the quotes).";
  }

  md:annotation last-modified {
    type yang:date-and-time;
    description
      "When the resource last changed, as its Last-Modified header
       field tells.";
  }
}
`;
