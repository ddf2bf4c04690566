import {
  childElement,
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  innerXml,
  textOf,
  type XmlElement,
} from '@yangkit/xml';
import {
  type AnyElement,
  type DataNode,
  type FilterElement,
  findPath,
  type InstanceTree,
} from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath } from '@yangkit/yang-xpath';
import { rpcError } from './errors.js';
import { filterElements } from './operation-args.js';

/** ietf-subscribed-notifications namespace (RFC 8639). */
export const SN_NS = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';
/** ietf-yang-push namespace (RFC 8641). */
export const YP_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-push';
/** ietf-datastores namespace (RFC 8342). */
export const DS_NS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';
/** The namespace of ietf-distributed-notif (draft-ietf-netconf-distributed-notif). */
export const DN_NS = 'urn:ietf:params:xml:ns:yang:ietf-distributed-notif';

/**
 * A content filter of a subscription: subtree (RFC 6241 section 6) or XPath 1.0; `ref` names the
 * configured filter it was read from (`stream-filter-name`, `selection-filter-ref`).
 */
export type Selection = (
  | {
      readonly subtree: readonly FilterElement[];
      /** The filter's content as XML, for the subscription's state. */
      readonly xml: string;
    }
  | {
      readonly xpath: string;
      readonly scope: ReadonlyMap<string, string>;
      /** Compiled when the subscription is established or modified, reused for every event. */
      readonly compiled?: CompiledXPath;
    }
) & { readonly ref?: string };

/** RFC 8641 update trigger; periods in centiseconds (the module's `centiseconds` type). */
export type Trigger =
  | { readonly periodic: { readonly period: number; readonly anchorTime: number | undefined } }
  | { readonly onChange: { readonly dampening: number; readonly syncOnStart: boolean } };

/** The subscribed datastores (RFC 8641 section 3.1): running and operational. */
export type SubscribedDatastore = 'running' | 'operational';

/** What modify-subscription asks to change; an absent member keeps its value (RFC 8641 4.4.2). */
export interface PolicyChange {
  /** `null`: the request names no filter. */
  readonly filter: Selection | null;
  readonly stopTime: number | undefined;
  readonly trigger: Trigger | undefined;
  /** The target case the request carries, to refuse one the subscription is not. */
  readonly target: 'stream' | 'datastore' | undefined;
  readonly datastore: SubscribedDatastore | undefined;
}

const sn = (op: XmlElement, local: string): XmlElement | undefined => childElement(op, local, SN_NS);
const yp = (op: XmlElement, local: string): XmlElement | undefined => childElement(op, local, YP_NS);

function invalid(message: string, appTag: string, badElement?: string): never {
  throw rpcError('invalid-value', message, {
    errorAppTag: appTag,
    ...(badElement === undefined ? {} : { errorInfo: { 'bad-element': badElement } }),
  });
}

/** RFC 8639 `subscription-id` (uint32) of a modify-, delete- or kill-subscription. */
export function subscriptionIdOf(op: XmlElement): number {
  const el = sn(op, 'id');
  const text = el ? textOf(el).trim() : '';
  const id = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(id) || id > 0xffffffff)
    throw rpcError('missing-element', 'the subscription id is missing or not a number', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'id' },
    });
  return id;
}

/**
 * The XPath context of a stream or datastore xpath filter (RFC 8639 section 2.4.2, the module's
 * `stream-xpath-filter`): every implemented module's name is a prefix of its namespace, then the
 * declarations in scope on the element, which win.
 */
function xpathScope(schema: SchemaTree, el: XmlElement | undefined): Map<string, string> {
  const scope = new Map<string, string>();
  for (const m of schema.modules) if (m.implemented) scope.set(m.name, m.namespace);
  if (el) for (const [p, u] of el.scope.bindings()) if (p !== '') scope.set(p, u);
  return scope;
}

function checkedXpath(text: string, scope: Map<string, string>, name: string): Selection {
  try {
    return { xpath: text, scope, compiled: compileXPath(text, { prefixes: scope }) };
  } catch (error) {
    return invalid(
      `the ${name} cannot be used: ${error instanceof Error ? error.message : String(error)}`,
      'ietf-subscribed-notifications:filter-unsupported',
      name,
    );
  }
}

/**
 * The filter of `kind` (stream or datastore) in an establish- or modify-subscription, or null when
 * there is none: given inline, or by name from the configured `filters` of running (RFC 8639
 * `stream-filter-name`, RFC 8641 `selection-filter-ref`), read now.
 */
export function filterOf(
  schema: SchemaTree,
  running: InstanceTree,
  op: XmlElement,
  kind: 'stream' | 'datastore',
): Selection | null {
  const find = kind === 'stream' ? sn : yp;
  const byName = kind === 'stream' ? sn(op, 'stream-filter-name') : yp(op, 'selection-filter-ref');
  if (byName) return configuredFilter(schema, running, kind, textOf(byName).trim());
  const subtree = find(op, `${kind}-subtree-filter`);
  if (subtree) return { subtree: filterElements(childElements(subtree)), xml: innerXml(subtree) };
  const xpath = find(op, `${kind}-xpath-filter`);
  if (!xpath) return null;
  return checkedXpath(textOf(xpath).trim(), xpathScope(schema, xpath), xpath.local);
}

/** A filter of running's `/sn:filters`, by name (its xpath prefixes are module names). */
function configuredFilter(
  schema: SchemaTree,
  running: InstanceTree,
  kind: 'stream' | 'datastore',
  name: string,
): Selection {
  const filters = schema.find('/ietf-subscribed-notifications:filters');
  const list = filters?.dataChild(
    kind === 'stream' ? 'ietf-subscribed-notifications' : 'ietf-yang-push',
    kind === 'stream' ? 'stream-filter' : 'selection-filter',
  );
  const module = kind === 'stream' ? 'ietf-subscribed-notifications' : 'ietf-yang-push';
  const subtreeSchema = list?.dataChild(module, `${kind}-subtree-filter`);
  const xpathSchema = list?.dataChild(module, `${kind}-xpath-filter`);
  const entry =
    filters === undefined || list === undefined
      ? undefined
      : findPath(running, [
          { schema: filters },
          { schema: list, keys: [{ name: list.keyNodes[0]?.name ?? 'name', value: name }] },
        ]);
  const subtree = entry && subtreeSchema ? entry.children?.get(subtreeSchema)?.[0] : undefined;
  const xpath = entry && xpathSchema ? entry.children?.get(xpathSchema)?.[0] : undefined;
  if (subtree !== undefined) return { subtree: anydataFilter(schema, subtree), xml: '', ref: name };
  if (xpath?.value !== undefined) {
    const scope = xpathScope(schema, undefined);
    return { ...checkedXpath(xpath.value, scope, `${kind}-xpath-filter`), ref: name };
  }
  return invalid(
    `no ${kind === 'stream' ? 'stream-filter' : 'selection-filter'} "${name}" is configured with a filter`,
    'ietf-subscribed-notifications:filter-unsupported',
    kind === 'stream' ? 'stream-filter-name' : 'selection-filter-ref',
  );
}

/**
 * A configured subtree filter (an anydata value) as filter elements: content the codec decoded as data
 * (values canonical, identities and instance-identifiers with module names), or schema-less elements.
 */
function anydataFilter(schema: SchemaTree, node: DataNode): FilterElement[] {
  const fromData = (n: DataNode): FilterElement => ({
    name: n.schema.name,
    namespace: n.schema.namespace,
    text: n.value ?? '',
    children: [...(n.children?.values() ?? [])].flat().map(fromData),
    lookupPrefix: (prefix) => schema.moduleByName(prefix)?.namespace,
  });
  const fromAny = (e: AnyElement): FilterElement => ({
    name: e.name,
    namespace: e.ns === '' ? undefined : e.ns,
    text: e.text ?? '',
    children: (e.children ?? []).map(fromAny),
  });
  if (node.children !== undefined) return [...node.children.values()].flat().map(fromData);
  return (node.any ?? []).map(fromAny);
}

/** The `stop-time` of the request (RFC 8639 `subscription-policy-modifiable`), in ms. */
export function stopTimeOf(op: XmlElement): number | undefined {
  const el = sn(op, 'stop-time');
  if (!el) return undefined;
  const ms = Date.parse(textOf(el).trim());
  if (Number.isNaN(ms))
    throw rpcError('invalid-value', 'stop-time is not a date-and-time', {
      errorType: 'protocol',
      errorInfo: { 'bad-element': 'stop-time' },
    });
  return ms;
}

/** The `yp:datastore` of the request, when it has one: running or operational (RFC 8641 3.1). */
export function datastoreOf(op: XmlElement): SubscribedDatastore | undefined {
  const el = yp(op, 'datastore');
  if (!el) return undefined;
  const text = textOf(el).trim();
  const colon = text.indexOf(':');
  const ns = el.scope.lookup(colon === -1 ? '' : text.slice(0, colon));
  const name = text.slice(colon + 1);
  if (ns !== DS_NS || (name !== 'running' && name !== 'operational')) {
    invalid(
      `datastore "${text}" cannot be subscribed to; running and operational can`,
      'ietf-yang-push:datastore-not-subscribable',
    );
  }
  return name;
}

function centiseconds(el: XmlElement, name: string, min: number): number {
  const text = textOf(el).trim();
  const n = /^[0-9]{1,10}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > 0xffffffff)
    invalid(
      `${name} is a number of centiseconds of at least ${min}`,
      'ietf-yang-push:period-unsupported',
      name,
    );
  return n;
}

/** The RFC 8641 `update-trigger` of the request: periodic (period, anchor-time) or on-change. */
export function triggerOf(op: XmlElement): Trigger | undefined {
  const periodic = yp(op, 'periodic');
  if (periodic) {
    const periodEl = childElement(periodic, 'period', YP_NS);
    if (!periodEl)
      throw rpcError('missing-element', 'periodic needs a period', {
        errorType: 'protocol',
        errorInfo: { 'bad-element': 'period' },
      });
    const anchorEl = childElement(periodic, 'anchor-time', YP_NS);
    const anchorTime = anchorEl ? Date.parse(textOf(anchorEl).trim()) : undefined;
    if (anchorTime !== undefined && Number.isNaN(anchorTime))
      invalid('anchor-time is not a date-and-time', 'ietf-yang-push:period-unsupported', 'anchor-time');
    return { periodic: { period: centiseconds(periodEl, 'period', 1), anchorTime } };
  }
  const onChange = yp(op, 'on-change');
  if (!onChange) return undefined;
  const dampEl = childElement(onChange, 'dampening-period', YP_NS);
  const syncEl = childElement(onChange, 'sync-on-start', YP_NS);
  return {
    onChange: {
      dampening: dampEl ? centiseconds(dampEl, 'dampening-period', 0) : 0,
      syncOnStart: !syncEl || textOf(syncEl).trim() !== 'false',
    },
  };
}

/** Refuses an `encoding` other than encode-xml, the one encoding of NETCONF (RFC 8639 2.4.2). */
export function checkEncoding(op: XmlElement): void {
  const el = sn(op, 'encoding');
  if (!el) return;
  const text = textOf(el).trim();
  const colon = text.indexOf(':');
  if (
    el.scope.lookup(colon === -1 ? '' : text.slice(0, colon)) !== SN_NS ||
    text.slice(colon + 1) !== 'encode-xml'
  )
    invalid(
      `encoding "${text}" is not supported; NETCONF subscriptions are encode-xml`,
      'ietf-subscribed-notifications:encoding-unsupported',
      'encoding',
    );
}

/** Reads a modify-subscription (RFC 8639 2.4.3, RFC 8641 4.4.2) without applying anything. */
export function parseModify(schema: SchemaTree, running: InstanceTree, op: XmlElement): PolicyChange {
  const datastore = datastoreOf(op);
  const streamy =
    sn(op, 'stream-subtree-filter') ?? sn(op, 'stream-xpath-filter') ?? sn(op, 'stream-filter-name');
  const storey =
    yp(op, 'datastore-subtree-filter') ?? yp(op, 'datastore-xpath-filter') ?? yp(op, 'selection-filter-ref');
  const trigger = triggerOf(op);
  const target = datastore !== undefined || storey || trigger ? 'datastore' : streamy ? 'stream' : undefined;
  if (target === 'datastore' && streamy)
    invalid(
      'a stream filter and datastore parameters cannot be mixed',
      'ietf-subscribed-notifications:filter-unsupported',
    );
  return {
    filter: target === undefined ? null : filterOf(schema, running, op, target),
    stopTime: stopTimeOf(op),
    trigger,
    target,
    datastore,
  };
}

/** A filter as the module's elements (`stream-subtree-filter` or `datastore-xpath-filter`...). */
export function filterXml(filter: Selection | undefined, kind: 'stream' | 'datastore', ns: string): string {
  if (filter === undefined) return '';
  if (filter.ref !== undefined) {
    const name = kind === 'stream' ? 'stream-filter-name' : 'selection-filter-ref';
    return `<${name} xmlns="${ns}">${escapeXmlText(filter.ref)}</${name}>`;
  }
  if ('subtree' in filter)
    return `<${kind}-subtree-filter xmlns="${ns}">${filter.xml}</${kind}-subtree-filter>`;
  // Only the prefixes the expression uses are declared, so a state read stays small.
  let decl = '';
  for (const [p, u] of filter.scope)
    if (filter.xpath.includes(`${p}:`)) decl += ` xmlns:${p}="${escapeXmlAttribute(u)}"`;
  return `<${kind}-xpath-filter xmlns="${ns}"${decl}>${escapeXmlText(filter.xpath)}</${kind}-xpath-filter>`;
}

/** RFC 3339 date-and-time, UTC with milliseconds. */
export function dateTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** The RFC 8641 `update-policy` elements of a datastore subscription. */
export function triggerXml(trigger: Trigger): string {
  if ('periodic' in trigger) {
    const anchor = trigger.periodic.anchorTime;
    return `<periodic xmlns="${YP_NS}"><period>${trigger.periodic.period}</period>${anchor === undefined ? '' : `<anchor-time>${dateTime(anchor)}</anchor-time>`}</periodic>`;
  }
  const c = trigger.onChange;
  return `<on-change xmlns="${YP_NS}"><dampening-period>${c.dampening}</dampening-period><sync-on-start>${c.syncOnStart}</sync-on-start></on-change>`;
}
