import { escapeXmlText } from '@yangkit/xml';
import { type DataNode, decodeXml, type InstanceTree, type PathStep } from '@yangkit/yang-json-codec';
import type { Settings } from './context.js';
import { nmdaCapabilities } from './nmda/capabilities.js';

/** Namespace of ietf-restconf-monitoring (RFC 8040 section 9.1). */
export const MONITORING_NS = 'urn:ietf:params:xml:ns:yang:ietf-restconf-monitoring';

/**
 * The capability URIs this handler supports (RFC 8040 section 9.1.1): only parameters that work
 * are listed, plus the basic-mode of with-defaults and any configured extras.
 */
export function restconfCapabilities(s: Settings): string[] {
  const base = 'urn:ietf:params:restconf:capability:';
  return [
    `${base}defaults:1.0?basic-mode=${s.defaultStyle}`,
    `${base}depth:1.0`,
    `${base}fields:1.0`,
    `${base}with-defaults:1.0`,
    `${base}yang-patch:1.0`,
    ...nmdaCapabilities(s),
    // RFC 8040 sections 9.1.1: filter with any event stream, replay when one keeps a replay log.
    ...(s.events.list().length > 0 ? [`${base}filter:1.0`] : []),
    ...(s.events.list().some((x) => x.replaySupport) ? [`${base}replay:1.0`] : []),
    ...s.capabilities,
  ];
}

/**
 * `restconf-state` as NETCONF XML (RFC 8040 section 9.1), served by the handler itself:
 * `<restconf-state xmlns=...><capabilities><capability>uri</capability>...</capabilities><streams>...</streams></restconf-state>`.
 */
function restconfStateXml(s: Settings): string {
  const caps = restconfCapabilities(s)
    .map((c) => `<capability>${escapeXmlText(c)}</capability>`)
    .join('');
  return `<restconf-state xmlns="${MONITORING_NS}"><capabilities>${caps}</capabilities>${s.events.streamsXml(s.serverUrl, s.root)}</restconf-state>`;
}

/**
 * Adds `restconf-state` to a tree read from the backend when the schema has
 * ietf-restconf-monitoring and the read is of the whole datastore or of that module's data;
 * answers the top nodes it added.
 */
export function addRestconfState(
  s: Settings,
  tree: InstanceTree,
  target: readonly PathStep[] | undefined,
): DataNode[] {
  const first = target?.[0];
  if (first !== undefined && first.schema.namespace !== MONITORING_NS) return [];
  if (s.schema.moduleByName('ietf-restconf-monitoring')?.implemented !== true) return [];
  const state = decodeXml(s.schema, restconfStateXml(s), { kind: 'data' });
  for (const [schema, nodes] of state.children) tree.children.set(schema, nodes);
  return [...state.children.values()].flat();
}
