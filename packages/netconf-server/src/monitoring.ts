import { BASE_1_0, BASE_1_1 } from '@yangkit/netconf-client';
import { escapeXmlText } from '@yangkit/xml';
import type { SchemaModule } from '@yangkit/yang-schema';
import type { NetconfServer } from './server.js';

const MON_NS = 'urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring';
const YLIB_NS = 'urn:ietf:params:xml:ns:yang:ietf-yang-library';
const NCEVENT_NS = 'urn:ietf:params:xml:ns:netmod:notification';
const DS_NS = 'urn:ietf:params:xml:ns:yang:ietf-datastores';
const CAP = 'urn:ietf:params:netconf:capability:';

/** FNV-1a, enough for a module-set-id / content-id that changes with the module set. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The module-set-id (RFC 7895) / content-id (RFC 8525) of the server's module set. */
export function moduleSetId(server: NetconfServer): string {
  return hash(
    server.schema.modules
      .map(
        (m) =>
          `${m.name}@${m.revision ?? ''}:${m.implemented}:${m.enabledFeatures.join(',')}:${m.deviatedBy.join(',')}`,
      )
      .join(';'),
  );
}

/**
 * The `<hello>` capabilities (RFC 6241 section 8): what the engine really supports, then one
 * module capability per module (RFC 6020 5.6.4 form, which YANG 1.0 clients such as ncclient use
 * to find modules), and the yang-library capabilities (RFC 7950 5.6.4, RFC 8526 section 2).
 */
export function serverCapabilities(server: NetconfServer): string[] {
  const caps = [BASE_1_0, BASE_1_1];
  if (server.features.writableRunning) caps.push(`${CAP}writable-running:1.0`);
  if (server.features.candidate)
    caps.push(`${CAP}candidate:1.0`, `${CAP}confirmed-commit:1.0`, `${CAP}confirmed-commit:1.1`);
  caps.push(`${CAP}rollback-on-error:1.0`, `${CAP}validate:1.0`, `${CAP}validate:1.1`);
  if (server.features.startup) caps.push(`${CAP}startup:1.0`);
  caps.push(`${CAP}xpath:1.0`, `${CAP}notification:1.0`, `${CAP}interleave:1.0`);
  caps.push(`${CAP}with-defaults:1.0?basic-mode=explicit&also-supported=report-all,report-all-tagged,trim`);
  const id = moduleSetId(server);
  const ylib = server.schema.moduleByName('ietf-yang-library');
  if (ylib?.implemented) {
    caps.push(`${CAP}yang-library:1.0?revision=2016-06-21&module-set-id=${id}`);
    if ((ylib.revision ?? '') >= '2019-01-04')
      caps.push(`${CAP}yang-library:1.1?revision=${ylib.revision}&content-id=${id}`);
  }
  for (const m of server.schema.modules) {
    if (!m.implemented) continue;
    let c = `${m.namespace}?module=${m.name}`;
    if (m.revision) c += `&revision=${m.revision}`;
    if (m.enabledFeatures.length > 0) c += `&features=${m.enabledFeatures.join(',')}`;
    if (m.deviatedBy.length > 0) c += `&deviations=${m.deviatedBy.join(',')}`;
    caps.push(c);
  }
  return caps;
}

/** The datastores of the server, for netconf-state and yang-library. */
export function datastoreNames(server: NetconfServer): string[] {
  const names = ['running'];
  if (server.features.candidate) names.push('candidate');
  if (server.features.startup) names.push('startup');
  return names;
}

/**
 * Operational state the server itself provides, as XML: ietf-netconf-monitoring `netconf-state`
 * (RFC 6022), ietf-yang-library `modules-state` and `yang-library` (RFC 7895, RFC 8525), and the
 * RFC 5277 `netconf/streams` list; each only when its module is implemented.
 */
export function monitoringState(server: NetconfServer): string {
  const out: string[] = [];
  const implemented = (name: string): boolean => server.schema.moduleByName(name)?.implemented === true;
  if (implemented('ietf-netconf-monitoring')) out.push(netconfState(server));
  if (implemented('ietf-yang-library')) out.push(yangLibrary(server));
  if (implemented('nc-notifications')) {
    const created = new Date(server.startTime).toISOString();
    out.push(
      `<netconf xmlns="${NCEVENT_NS}"><streams><stream><name>NETCONF</name><description>default NETCONF event stream</description><replaySupport>true</replaySupport><replayLogCreationTime>${created}</replayLogCreationTime></stream></streams></netconf>`,
    );
  }
  if (implemented('ietf-subscribed-notifications')) {
    out.push(
      `<streams xmlns="urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications"><stream><name>NETCONF</name><description>default NETCONF event stream</description><replay-support/><replay-log-creation-time>${new Date(server.startTime).toISOString()}</replay-log-creation-time></stream></streams>`,
      server.dynamic.stateXml(),
    );
  }
  return out.join('');
}

function netconfState(server: NetconfServer): string {
  const s: string[] = [`<netconf-state xmlns="${MON_NS}"><capabilities>`];
  for (const c of server.capabilities()) s.push(`<capability>${escapeXmlText(c)}</capability>`);
  s.push('</capabilities><datastores>');
  for (const name of datastoreNames(server)) {
    const lock = server.locks.get(name as 'running');
    s.push(`<datastore><name>${name}</name>`);
    if (lock)
      s.push(
        `<locks><global-lock><locked-by-session>${lock.session}</locked-by-session><locked-time>${lock.time.toISOString()}</locked-time></global-lock></locks>`,
      );
    s.push('</datastore>');
  }
  s.push('</datastores><schemas>');
  for (const m of server.schema.modules) {
    s.push(schemaEntry(m.name, m.revision, m.namespace));
    for (const sub of m.submodules) s.push(schemaEntry(sub.name, sub.revision, m.namespace));
  }
  s.push('</schemas><sessions>');
  const totals = { inRpcs: 0, inBadRpcs: 0, outRpcErrors: 0, outNotifications: 0 };
  for (const session of server.sessions.values()) {
    const c = session.counters;
    totals.inRpcs += c.inRpcs;
    totals.inBadRpcs += c.inBadRpcs;
    totals.outRpcErrors += c.outRpcErrors;
    totals.outNotifications += c.outNotifications;
    if (!session.established) continue;
    const transport = session.info.transport ?? 'netconf-ssh';
    s.push(
      `<session><session-id>${session.id}</session-id><transport xmlns:ncm="${MON_NS}">ncm:${escapeXmlText(transport)}</transport><username>${escapeXmlText(session.info.username)}</username>`,
      session.info.sourceHost ? `<source-host>${escapeXmlText(session.info.sourceHost)}</source-host>` : '',
      `<login-time>${session.loginTime.toISOString()}</login-time><in-rpcs>${c.inRpcs}</in-rpcs><in-bad-rpcs>${c.inBadRpcs}</in-bad-rpcs><out-rpc-errors>${c.outRpcErrors}</out-rpc-errors><out-notifications>${c.outNotifications}</out-notifications></session>`,
    );
  }
  const st = server.statistics;
  s.push(
    `</sessions><statistics><netconf-start-time>${server.startTime.toISOString()}</netconf-start-time><in-bad-hellos>${st.inBadHellos}</in-bad-hellos><in-sessions>${st.inSessions}</in-sessions><dropped-sessions>${st.droppedSessions}</dropped-sessions><in-rpcs>${totals.inRpcs}</in-rpcs><in-bad-rpcs>${totals.inBadRpcs}</in-bad-rpcs><out-rpc-errors>${totals.outRpcErrors}</out-rpc-errors><out-notifications>${totals.outNotifications}</out-notifications></statistics></netconf-state>`,
  );
  return s.join('');
}

function schemaEntry(name: string, revision: string | undefined, namespace: string): string {
  return `<schema><identifier>${escapeXmlText(name)}</identifier><version>${revision ?? ''}</version><format xmlns:ncm="${MON_NS}">ncm:yang</format><namespace>${escapeXmlText(namespace)}</namespace><location>NETCONF</location></schema>`;
}

function moduleEntry(m: SchemaModule, full: boolean): string {
  let s = `<name>${escapeXmlText(m.name)}</name>`;
  if (m.revision || !full) s += `<revision>${m.revision ?? ''}</revision>`;
  s += `<namespace>${escapeXmlText(m.namespace)}</namespace>`;
  if (full) {
    for (const f of m.enabledFeatures) s += `<feature>${escapeXmlText(f)}</feature>`;
    for (const d of m.deviatedBy) s += `<deviation>${escapeXmlText(d)}</deviation>`;
  }
  return s;
}

function yangLibrary(server: NetconfServer): string {
  const id = moduleSetId(server);
  const mods = server.schema.modules;
  const s: string[] = [`<modules-state xmlns="${YLIB_NS}"><module-set-id>${id}</module-set-id>`];
  for (const m of mods) {
    s.push(
      `<module><name>${escapeXmlText(m.name)}</name><revision>${m.revision ?? ''}</revision><namespace>${escapeXmlText(m.namespace)}</namespace>`,
    );
    for (const f of m.enabledFeatures) s.push(`<feature>${escapeXmlText(f)}</feature>`);
    for (const d of m.deviatedBy) {
      const rev = server.schema.moduleByName(d)?.revision ?? '';
      s.push(`<deviation><name>${escapeXmlText(d)}</name><revision>${rev}</revision></deviation>`);
    }
    s.push(`<conformance-type>${m.implemented ? 'implement' : 'import'}</conformance-type>`);
    for (const sub of m.submodules)
      s.push(
        `<submodule><name>${escapeXmlText(sub.name)}</name><revision>${sub.revision ?? ''}</revision></submodule>`,
      );
    s.push('</module>');
  }
  s.push('</modules-state>');
  const ylib = server.schema.moduleByName('ietf-yang-library');
  if ((ylib?.revision ?? '') >= '2019-01-04') {
    s.push(`<yang-library xmlns="${YLIB_NS}" xmlns:ds="${DS_NS}"><module-set><name>all</name>`);
    const seen = new Set<string>();
    for (const m of mods) {
      if (!m.implemented || seen.has(m.name)) continue;
      seen.add(m.name);
      s.push(`<module>${moduleEntry(m, true)}</module>`);
    }
    for (const m of mods) {
      if (m.implemented) continue;
      s.push(
        `<import-only-module><name>${escapeXmlText(m.name)}</name><revision>${m.revision ?? ''}</revision><namespace>${escapeXmlText(m.namespace)}</namespace></import-only-module>`,
      );
    }
    s.push('</module-set><schema><name>all</name><module-set>all</module-set></schema>');
    const dsModule = server.schema.moduleByName('ietf-datastores');
    if (dsModule) {
      for (const name of [...datastoreNames(server), 'operational'])
        s.push(`<datastore><name>ds:${name}</name><schema>all</schema></datastore>`);
    }
    s.push(`<content-id>${id}</content-id></yang-library>`);
  }
  return s.join('');
}
