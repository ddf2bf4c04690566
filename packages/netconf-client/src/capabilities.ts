/**
 * Capabilities of a `<hello>` (RFC 6241 section 8), decoded from their URIs.
 */
export interface Capabilities {
  /** Every capability URI as advertised, in order. */
  readonly uris: readonly string[];
  /** `1.0` and/or `1.1`, from `urn:ietf:params:netconf:base:<v>`. */
  readonly baseVersions: readonly string[];
  /**
   * Protocol capabilities by short name and version, e.g. `candidate` -> `1.0`,
   * `confirmed-commit` -> `1.1` (the highest advertised version).
   */
  readonly protocol: ReadonlyMap<string, string>;
  /** RFC 6243 `:with-defaults`, when advertised. */
  readonly withDefaults?: { basicMode: string; alsoSupported: readonly string[] };
  /** Modules announced as `<namespace>?module=...` (RFC 6020 section 5.6.4 / RFC 7950 section 5.6.4). */
  readonly modules: readonly ModuleCapability[];
  /** RFC 7950 section 5.6.4 / RFC 8526: the `yang-library` capability, when advertised. */
  readonly yangLibrary?: { version: string; revision?: string; contentId?: string; moduleSetId?: string };
}

/** A module capability URI decoded. */
export interface ModuleCapability {
  readonly namespace: string;
  readonly module: string;
  readonly revision?: string;
  readonly features: readonly string[];
  readonly deviations: readonly string[];
}

const PROTOCOL_PREFIX = 'urn:ietf:params:netconf:capability:';
const BASE_PREFIX = 'urn:ietf:params:netconf:base:';

/** The base:1.0 capability URI. */
export const BASE_1_0 = 'urn:ietf:params:netconf:base:1.0';
/** The base:1.1 capability URI. */
export const BASE_1_1 = 'urn:ietf:params:netconf:base:1.1';

function splitUri(uri: string): [string, URLSearchParams] {
  const q = uri.indexOf('?');
  if (q === -1) return [uri, new URLSearchParams()];
  return [uri.slice(0, q), new URLSearchParams(uri.slice(q + 1))];
}

function list(value: string | null): string[] {
  return value ? value.split(',').filter((v) => v !== '') : [];
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Decodes capability URIs (already XML-unescaped) into {@link Capabilities}. Unknown URIs are kept
 * in `uris` only; nothing here throws.
 */
export function parseCapabilities(uris: readonly string[]): Capabilities {
  const baseVersions: string[] = [];
  const protocol = new Map<string, string>();
  const modules: ModuleCapability[] = [];
  let withDefaults: Capabilities['withDefaults'];
  let yangLibrary: Capabilities['yangLibrary'];
  for (const raw of uris) {
    const uri = raw.trim();
    const [base, params] = splitUri(uri);
    if (base.startsWith(BASE_PREFIX)) {
      baseVersions.push(base.slice(BASE_PREFIX.length));
    } else if (base.startsWith(PROTOCOL_PREFIX)) {
      const rest = base.slice(PROTOCOL_PREFIX.length);
      const colon = rest.lastIndexOf(':');
      const name = colon === -1 ? rest : rest.slice(0, colon);
      const version = colon === -1 ? '' : rest.slice(colon + 1);
      const known = protocol.get(name);
      if (known === undefined || compareVersions(version, known) > 0) protocol.set(name, version);
      if (name === 'with-defaults') {
        withDefaults = {
          basicMode: params.get('basic-mode') ?? '',
          alsoSupported: list(params.get('also-supported')),
        };
      } else if (name === 'yang-library') {
        const revision = params.get('revision');
        const contentId = params.get('content-id');
        const moduleSetId = params.get('module-set-id');
        yangLibrary = {
          version,
          ...(revision !== null && { revision }),
          ...(contentId !== null && { contentId }),
          ...(moduleSetId !== null && { moduleSetId }),
        };
      }
    } else {
      const module = params.get('module');
      if (module !== null) {
        const revision = params.get('revision');
        modules.push({
          namespace: base,
          module,
          ...(revision !== null && { revision }),
          features: list(params.get('features')),
          deviations: list(params.get('deviations')),
        });
      }
    }
  }
  return {
    uris: uris.map((u) => u.trim()),
    baseVersions,
    protocol,
    modules,
    ...(withDefaults !== undefined && { withDefaults }),
    ...(yangLibrary !== undefined && { yangLibrary }),
  };
}
