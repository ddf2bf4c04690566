/** Name of the module that defines the `get-bulk` operation. */
export const GET_BULK_MODULE = 'yangkit-get-bulk';

/** Namespace of {@link GET_BULK_MODULE}. */
export const GET_BULK_NS = 'urn:yangkit:params:xml:ns:yang:yangkit-get-bulk';

/**
 * Namespace of the `datapath` attribute on the XML `data` element of a get-bulk reply (the spec's
 * `vendor-attrs` namespace); it names the data node the entries sit in.
 */
export const ATTRS_NS = 'urn:yangkit:params:xml:ns:yangkit-attrs';

/**
 * The YANG text of {@link GET_BULK_MODULE}: the spec's `get-bulk` operation for paging through a
 * long list. Give it to the schema loader (`loadSchema({ texts: [GET_BULK_YANG], modules: [..., GET_BULK_MODULE] })`)
 * and the handler answers the operation itself.
 */
export const GET_BULK_YANG = `module yangkit-get-bulk {
  yang-version 1.1;
  namespace "${GET_BULK_NS}";
  prefix gb;

  organization "yangkit";
  description
    "Paging through a long list over RESTCONF: each call answers up to
     'count' entries of the list named by 'list-target' that follow the
     entry whose keys are 'last-keys'.";

  revision 2026-11-22 {
    description "Initial revision.";
  }

  rpc get-bulk {
    description "Answers the next entries of a list.";
    input {
      leaf list-target {
        type string;
        mandatory true;
        description
          "The api-path of the list (RFC 8040 section 3.5.3), without
           keys on its last segment, e.g.
           /example-jukebox:jukebox/library/artist.";
      }
      leaf count {
        type uint32 {
          range "1..10000";
        }
        default 100;
        description "Most entries answered by one call.";
      }
      anyxml last-keys {
        description
          "The key leafs of the last entry already received; absent for
           the first page.";
      }
    }
    output {
      container bulk {
        description "One page of the list.";
        anydata data {
          description "The entries of this page, as list members.";
        }
        anyxml last-keys {
          description
            "The key leafs of the last entry of this page; absent when
             the page is empty.";
        }
      }
    }
  }
}
`;
