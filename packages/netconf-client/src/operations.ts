import { escapeXmlAttribute, escapeXmlText } from '@yangkit/xml';
import { NetconfError } from './errors.js';

/**
 * Builders for the operations of RFC 6241, 5277, 6022, 6243, 8526 and 8639: each returns the XML
 * that goes inside `<rpc>`. Pure string building; values are escaped, XML fragments passed by the
 * caller (config, filters) are inserted as given.
 */

/** A conventional datastore name, or any other a server defines. */
export type Datastore = 'running' | 'candidate' | 'startup' | (string & {});

/** A datastore, or a URL (`:url` capability) for copy-config/delete-config/validate/edit-config. */
export type ConfigTarget = Datastore | { url: string };

/**
 * A filter (RFC 6241 section 6): a subtree filter as XML, or an XPath 1.0 expression
 * (`:xpath` capability) with the namespace prefixes it uses.
 */
export type Filter = string | { subtree: string } | { xpath: string; namespaces?: Record<string, string> };

/** RFC 6243 retrieval modes. */
export type WithDefaultsMode = 'report-all' | 'report-all-tagged' | 'trim' | 'explicit';

const NS = {
  withDefaults: 'urn:ietf:params:xml:ns:yang:ietf-netconf-with-defaults',
  monitoring: 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring',
  nmda: 'urn:ietf:params:xml:ns:yang:ietf-netconf-nmda',
  datastores: 'urn:ietf:params:xml:ns:yang:ietf-datastores',
  notification: 'urn:ietf:params:xml:ns:netconf:notification:1.0',
  subscribed: 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications',
} as const;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function text(name: string, value: string | number): string {
  return `<${name}>${escapeXmlText(String(value))}</${name}>`;
}

function datastoreElement(name: string, target: ConfigTarget): string {
  if (typeof target === 'object') return `<${name}>${text('url', target.url)}</${name}>`;
  if (!IDENTIFIER.test(target))
    throw new NetconfError('INVALID_ARGUMENT', `invalid datastore name ${target}`);
  return `<${name}><${target}/></${name}>`;
}

function xmlnsAttributes(namespaces: Record<string, string> | undefined): string {
  let out = '';
  for (const [prefix, uri] of Object.entries(namespaces ?? {})) {
    if (!IDENTIFIER.test(prefix))
      throw new NetconfError('INVALID_ARGUMENT', `invalid namespace prefix ${prefix}`);
    out += ` xmlns:${prefix}="${escapeXmlAttribute(uri)}"`;
  }
  return out;
}

/** `<filter type="subtree">..</filter>` or `<filter type="xpath" select=".."/>` (RFC 6241 section 6/8.9). */
export function buildFilter(filter: Filter | undefined, element = 'filter'): string {
  if (filter === undefined) return '';
  if (typeof filter === 'string') return `<${element} type="subtree">${filter}</${element}>`;
  if ('subtree' in filter) return `<${element} type="subtree">${filter.subtree}</${element}>`;
  return `<${element} type="xpath"${xmlnsAttributes(filter.namespaces)} select="${escapeXmlAttribute(filter.xpath)}"/>`;
}

function withDefaults(mode: WithDefaultsMode | undefined): string {
  return mode === undefined
    ? ''
    : `<with-defaults xmlns="${NS.withDefaults}">${escapeXmlText(mode)}</with-defaults>`;
}

/** `<get>` (RFC 6241 section 7.7) with an optional filter and RFC 6243 with-defaults. */
export function buildGet(options: { filter?: Filter; withDefaults?: WithDefaultsMode } = {}): string {
  return `<get>${buildFilter(options.filter)}${withDefaults(options.withDefaults)}</get>`;
}

/** `<get-config>` (RFC 6241 section 7.1). */
export function buildGetConfig(options: {
  source: Datastore;
  filter?: Filter;
  withDefaults?: WithDefaultsMode;
}): string {
  return `<get-config>${datastoreElement('source', options.source)}${buildFilter(options.filter)}${withDefaults(options.withDefaults)}</get-config>`;
}

/** Parameters of `<edit-config>` (RFC 6241 section 7.2). */
export interface EditConfigOptions {
  target: Datastore;
  /** The `<config>` content as XML, or a URL holding it (`:url`). */
  config: string | { url: string };
  defaultOperation?: 'merge' | 'replace' | 'none';
  testOption?: 'test-then-set' | 'set' | 'test-only';
  errorOption?: 'stop-on-error' | 'continue-on-error' | 'rollback-on-error';
}

/** `<edit-config>` (RFC 6241 section 7.2). */
export function buildEditConfig(options: EditConfigOptions): string {
  const parts = [datastoreElement('target', options.target)];
  if (options.defaultOperation) parts.push(text('default-operation', options.defaultOperation));
  if (options.testOption) parts.push(text('test-option', options.testOption));
  if (options.errorOption) parts.push(text('error-option', options.errorOption));
  parts.push(
    typeof options.config === 'string'
      ? `<config>${options.config}</config>`
      : text('url', options.config.url),
  );
  return `<edit-config>${parts.join('')}</edit-config>`;
}

/** `<copy-config>` (RFC 6241 section 7.3); the source may also be inline `{config: xml}`. */
export function buildCopyConfig(options: {
  target: ConfigTarget;
  source: ConfigTarget | { config: string };
  withDefaults?: WithDefaultsMode;
}): string {
  const source =
    typeof options.source === 'object' && 'config' in options.source
      ? `<source><config>${options.source.config}</config></source>`
      : datastoreElement('source', options.source);
  return `<copy-config>${datastoreElement('target', options.target)}${source}${withDefaults(options.withDefaults)}</copy-config>`;
}

/** `<delete-config>` (RFC 6241 section 7.4). */
export function buildDeleteConfig(options: { target: ConfigTarget }): string {
  return `<delete-config>${datastoreElement('target', options.target)}</delete-config>`;
}

/** `<lock>` (RFC 6241 section 7.5). */
export function buildLock(options: { target: Datastore }): string {
  return `<lock>${datastoreElement('target', options.target)}</lock>`;
}

/** `<unlock>` (RFC 6241 section 7.6). */
export function buildUnlock(options: { target: Datastore }): string {
  return `<unlock>${datastoreElement('target', options.target)}</unlock>`;
}

/** Parameters of `<commit>` (RFC 6241 sections 8.3.4 and 8.4.5). */
export interface CommitOptions {
  /** Starts a confirmed commit (`:confirmed-commit`). */
  confirmed?: boolean;
  /** Seconds before an unconfirmed commit is rolled back (server default 600). */
  confirmTimeout?: number;
  /** Makes the confirmed commit survive the session, identified by this token (`:confirmed-commit:1.1`). */
  persist?: string;
  /** Confirms (or extends) a persistent confirmed commit started by any session. */
  persistId?: string;
}

/** `<commit>` (RFC 6241 section 8.3.4.1, 8.4.5.1). */
export function buildCommit(options: CommitOptions = {}): string {
  const parts: string[] = [];
  if (options.confirmed) parts.push('<confirmed/>');
  if (options.confirmTimeout !== undefined) {
    if (
      !Number.isInteger(options.confirmTimeout) ||
      options.confirmTimeout < 1 ||
      options.confirmTimeout > 4294967295
    ) {
      throw new NetconfError('INVALID_ARGUMENT', 'confirmTimeout must be an integer 1..4294967295 (seconds)');
    }
    parts.push(text('confirm-timeout', options.confirmTimeout));
  }
  if (options.persist !== undefined) parts.push(text('persist', options.persist));
  if (options.persistId !== undefined) parts.push(text('persist-id', options.persistId));
  return parts.length === 0 ? '<commit/>' : `<commit>${parts.join('')}</commit>`;
}

/** `<cancel-commit>` (RFC 6241 section 8.4.4.1). */
export function buildCancelCommit(options: { persistId?: string } = {}): string {
  return options.persistId === undefined
    ? '<cancel-commit/>'
    : `<cancel-commit>${text('persist-id', options.persistId)}</cancel-commit>`;
}

/** `<validate>` (RFC 6241 section 8.6.4.1); the source may be inline `{config: xml}`. */
export function buildValidate(options: { source: ConfigTarget | { config: string } }): string {
  const source =
    typeof options.source === 'object' && 'config' in options.source
      ? `<source><config>${options.source.config}</config></source>`
      : datastoreElement('source', options.source);
  return `<validate>${source}</validate>`;
}

/** `<kill-session>` (RFC 6241 section 7.9). */
export function buildKillSession(sessionId: number): string {
  if (!Number.isInteger(sessionId) || sessionId < 1 || sessionId > 4294967295) {
    throw new NetconfError('INVALID_ARGUMENT', `invalid session-id ${sessionId}`);
  }
  return `<kill-session>${text('session-id', sessionId)}</kill-session>`;
}

/**
 * `<get-schema>` (RFC 6022 section 3.1). The format identity is sent prefixed
 * (`ncm:yang`), which every server accepts; an unprefixed one is refused by some.
 */
export function buildGetSchema(options: { identifier: string; version?: string; format?: string }): string {
  const parts = [text('identifier', options.identifier)];
  if (options.version !== undefined) parts.push(text('version', options.version));
  if (options.format !== undefined) {
    parts.push(`<format xmlns:ncm="${NS.monitoring}">ncm:${escapeXmlText(options.format)}</format>`);
  }
  return `<get-schema xmlns="${NS.monitoring}">${parts.join('')}</get-schema>`;
}

function nmdaDatastore(datastore: string): string {
  // A bare name means an ietf-datastores identity (running, candidate, startup, intended, operational).
  const value = datastore.includes(':') ? datastore : `ds:${datastore}`;
  return `<datastore xmlns:ds="${NS.datastores}">${escapeXmlText(value)}</datastore>`;
}

/** Parameters of `<get-data>` (RFC 8526 section 3.1.1). */
export interface GetDataOptions {
  /** `running`, `candidate`, `startup`, `intended`, `operational`, or a prefixed identity. */
  datastore: string;
  filter?: Filter;
  configFilter?: boolean;
  maxDepth?: number | 'unbounded';
  withOrigin?: boolean;
  withDefaults?: WithDefaultsMode;
}

/** `<get-data>` (RFC 8526 section 3.1.1). */
export function buildGetData(options: GetDataOptions): string {
  const parts = [nmdaDatastore(options.datastore)];
  const filter = options.filter;
  if (filter !== undefined) {
    if (typeof filter === 'string' || 'subtree' in filter) {
      parts.push(`<subtree-filter>${typeof filter === 'string' ? filter : filter.subtree}</subtree-filter>`);
    } else
      parts.push(
        `<xpath-filter${xmlnsAttributes(filter.namespaces)}>${escapeXmlText(filter.xpath)}</xpath-filter>`,
      );
  }
  if (options.configFilter !== undefined) parts.push(text('config-filter', String(options.configFilter)));
  if (options.maxDepth !== undefined) parts.push(text('max-depth', options.maxDepth));
  if (options.withOrigin) parts.push('<with-origin/>');
  return `<get-data xmlns="${NS.nmda}">${parts.join('')}${withDefaults(options.withDefaults)}</get-data>`;
}

/** `<edit-data>` (RFC 8526 section 3.2.1). */
export function buildEditData(options: {
  datastore: string;
  config: string;
  defaultOperation?: 'merge' | 'replace' | 'none';
}): string {
  const op = options.defaultOperation ? text('default-operation', options.defaultOperation) : '';
  return `<edit-data xmlns="${NS.nmda}">${nmdaDatastore(options.datastore)}${op}<config>${options.config}</config></edit-data>`;
}

/** Parameters of `<create-subscription>` (RFC 5277 section 2.1.1). */
export interface CreateSubscriptionOptions {
  /** Stream name (default `NETCONF`). */
  stream?: string;
  filter?: Filter;
  /** RFC 3339 date-time: replay from this time (`:replay`). */
  startTime?: string;
  stopTime?: string;
}

/** `<create-subscription>` (RFC 5277 section 2.1.1). */
export function buildCreateSubscription(options: CreateSubscriptionOptions = {}): string {
  const parts: string[] = [];
  if (options.stream !== undefined) parts.push(text('stream', options.stream));
  parts.push(buildFilter(options.filter));
  if (options.startTime !== undefined) parts.push(text('startTime', options.startTime));
  if (options.stopTime !== undefined) parts.push(text('stopTime', options.stopTime));
  return `<create-subscription xmlns="${NS.notification}">${parts.join('')}</create-subscription>`;
}

/** Parameters of `<establish-subscription>` (RFC 8639 section 2.4.2). */
export interface EstablishSubscriptionOptions {
  stream: string;
  /** A subtree or XPath stream filter, or the name of a configured filter. */
  filter?: Filter | { name: string };
  replayStartTime?: string;
  stopTime?: string;
  /** An encoding identity, e.g. `encode-xml`. */
  encoding?: string;
  /** Extra XML appended inside the request (augmentations such as RFC 8641 periodic). */
  extra?: string;
}

function streamFilter(filter: Filter | { name: string } | undefined): string {
  if (filter === undefined) return '';
  if (typeof filter === 'object' && 'name' in filter) return text('stream-filter-name', filter.name);
  if (typeof filter === 'string' || 'subtree' in filter) {
    return `<stream-subtree-filter>${typeof filter === 'string' ? filter : filter.subtree}</stream-subtree-filter>`;
  }
  return `<stream-xpath-filter${xmlnsAttributes(filter.namespaces)}>${escapeXmlText(filter.xpath)}</stream-xpath-filter>`;
}

/** `<establish-subscription>` (RFC 8639 section 2.4.2). */
export function buildEstablishSubscription(options: EstablishSubscriptionOptions): string {
  const parts = [text('stream', options.stream), streamFilter(options.filter)];
  if (options.replayStartTime !== undefined) parts.push(text('replay-start-time', options.replayStartTime));
  if (options.stopTime !== undefined) parts.push(text('stop-time', options.stopTime));
  if (options.encoding !== undefined) parts.push(text('encoding', options.encoding));
  if (options.extra !== undefined) parts.push(options.extra);
  return `<establish-subscription xmlns="${NS.subscribed}">${parts.join('')}</establish-subscription>`;
}

/** `<modify-subscription>` (RFC 8639 section 2.4.3). */
export function buildModifySubscription(options: {
  id: number;
  filter?: Filter | { name: string };
  stopTime?: string;
  extra?: string;
}): string {
  const parts = [text('id', options.id), streamFilter(options.filter)];
  if (options.stopTime !== undefined) parts.push(text('stop-time', options.stopTime));
  if (options.extra !== undefined) parts.push(options.extra);
  return `<modify-subscription xmlns="${NS.subscribed}">${parts.join('')}</modify-subscription>`;
}

/** `<delete-subscription>` or `<kill-subscription>` (RFC 8639 sections 2.4.4, 2.4.5). */
export function buildEndSubscription(kind: 'delete' | 'kill', id: number): string {
  return `<${kind}-subscription xmlns="${NS.subscribed}">${text('id', id)}</${kind}-subscription>`;
}

/** Namespaces used by the builders, for callers decoding replies. */
export const NAMESPACES = NS;
