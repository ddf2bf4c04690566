import { type ApiPath, type ApiPathLimits, type ParseApiPathOptions, parseApiPath } from './api-path.js';
import { RestconfUriError } from './errors.js';
import { isIdentifier } from './identifier.js';
import { percentDecode } from './percent-encoding.js';

/** A module-qualified name, as an NMDA datastore identity (`ietf-datastores:running`). */
export interface QualifiedName {
  readonly module: string;
  readonly name: string;
}

/**
 * The RESTCONF resource a request path names (RFC 8040 section 3, RFC 8527 section 3,
 * RFC 8650 section 3). `kind` discriminates:
 *
 * | kind | path |
 * |---|---|
 * | `well-known-host-meta` | `/.well-known/host-meta` (`format: 'xrd'`) or `/.well-known/host-meta.json` |
 * | `api-root` | `{root}` |
 * | `datastore` | `{root}/data` |
 * | `data` | `{root}/data/<api-path>` |
 * | `operations` | `{root}/operations` |
 * | `operation` | `{root}/operations/[<module>:]<name>` |
 * | `yang-library-version` | `{root}/yang-library-version` |
 * | `version` | `{root}/version` |
 * | `schema` | `{root}/yang` or `{root}/yang/<module>[@<revision>]` |
 * | `stream` | `{root}/stream`, `{root}/streams`, `{root}/streams/<encoding>-<name>` |
 * | `subscription` | `{root}/subscriptions/<id>` |
 * | `nmda-datastore` | `{root}/ds/<module>:<datastore>` |
 * | `nmda-data` | `{root}/ds/<module>:<datastore>/<api-path>` |
 */
export type RequestTarget =
  | { readonly kind: 'well-known-host-meta'; readonly format: 'xrd' | 'json' }
  | { readonly kind: 'api-root' }
  | { readonly kind: 'datastore' }
  | { readonly kind: 'data'; readonly path: ApiPath }
  | { readonly kind: 'operations' }
  | { readonly kind: 'operation'; readonly module?: string; readonly name: string }
  | { readonly kind: 'yang-library-version' }
  | { readonly kind: 'version' }
  | { readonly kind: 'schema'; readonly module?: string; readonly revision?: string }
  | { readonly kind: 'stream'; readonly encoding?: string; readonly name?: string }
  | { readonly kind: 'subscription'; readonly id: string }
  | { readonly kind: 'nmda-datastore'; readonly datastore: QualifiedName }
  | { readonly kind: 'nmda-data'; readonly datastore: QualifiedName; readonly path: ApiPath };

/** The `kind` of a {@link RequestTarget}. */
export type TargetKind = RequestTarget['kind'];

/** Options of {@link classifyTarget}. */
export interface ClassifyTargetOptions extends ApiPathLimits {
  /** The `{+restconf}` root path announced in host-meta. Default `/restconf`. */
  readonly root?: string;
}

const REVISION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Classifies a request path (the part of the request target before `?`, still
 * percent-encoded) into a {@link RequestTarget}, parsing the api-path of data resources.
 *
 * @throws {RestconfUriError} `URI_RESOURCE_NOT_FOUND` (404) for a path naming no RESTCONF
 *   resource; 400 errors of {@link parseApiPath} for a malformed api-path
 */
export function classifyTarget(pathname: string, options: ClassifyTargetOptions = {}): RequestTarget {
  const maxLength = options.maxLength ?? 8192;
  if (pathname.length > maxLength) {
    throw new RestconfUriError(
      'URI_TOO_LONG',
      `request path of ${pathname.length} characters exceeds the limit of ${maxLength}`,
      { offset: maxLength },
    );
  }
  // RFC 8040 section 3.1: root discovery (RFC 6415 host-meta, XRD or JSON form).
  if (pathname === '/.well-known/host-meta') return { kind: 'well-known-host-meta', format: 'xrd' };
  if (pathname === '/.well-known/host-meta.json') return { kind: 'well-known-host-meta', format: 'json' };
  const root = normalizeRoot(options.root ?? '/restconf');
  if (pathname === root || pathname === `${root}/`) return { kind: 'api-root' };
  if (!pathname.startsWith(`${root}/`)) throw notFound(pathname, `it is outside the RESTCONF root '${root}'`);
  const start = root.length + 1;
  const slash = pathname.indexOf('/', start);
  const head = pathname.slice(start, slash === -1 ? undefined : slash);
  const rest = slash === -1 ? '' : pathname.slice(slash);
  switch (head) {
    case 'data':
      if (rest === '' || rest === '/') return { kind: 'datastore' };
      return { kind: 'data', path: parseApiPath(rest, apiPathOptions(options, slash)) };
    case 'operations':
      return classifyOperation(pathname, rest, slash);
    case 'yang-library-version':
    case 'version':
      if (rest === '' || rest === '/') return { kind: head };
      break;
    case 'yang':
      return classifySchema(pathname, rest, slash);
    case 'stream':
      if (rest === '' || rest === '/') return { kind: 'stream' };
      break;
    case 'streams':
      return classifyStreams(pathname, rest, slash);
    case 'subscriptions':
      return classifySubscription(pathname, rest, slash);
    case 'ds':
      return classifyNmda(pathname, rest, slash, options);
  }
  throw notFound(pathname, `'${head}' is not a RESTCONF resource`);
}

/**
 * `options` with `offset`, for {@link parseApiPath}. The offset comes first: an object literal that
 * starts with a spread of another object got V8 a new map for each request.
 */
function apiPathOptions(options: ClassifyTargetOptions, offset: number): ParseApiPathOptions {
  return { offset, ...options };
}

function normalizeRoot(root: string): string {
  const withSlash = root.startsWith('/') ? root : `/${root}`;
  return withSlash.endsWith('/') ? withSlash.slice(0, -1) : withSlash;
}

function notFound(pathname: string, why: string): RestconfUriError {
  return new RestconfUriError('URI_RESOURCE_NOT_FOUND', `no resource at '${pathname}': ${why}`, {
    badValue: pathname,
  });
}

/** The single segment after `rest`'s leading `/`, decoded; undefined when there is none. */
function singleSegment(pathname: string, rest: string, offset: number, what: string): string | undefined {
  if (rest === '' || rest === '/') return undefined;
  const text = rest.endsWith('/') ? rest.slice(1, -1) : rest.slice(1);
  if (text.includes('/') || text === '') throw notFound(pathname, `${what} takes exactly one path segment`);
  return percentDecode(text, what, offset + 1);
}

function badName(what: string, text: string, offset: number): RestconfUriError {
  return new RestconfUriError('URI_BAD_IDENTIFIER', `${what} '${text}' at offset ${offset} is not valid`, {
    offset,
    badValue: text,
  });
}

function classifyOperation(pathname: string, rest: string, offset: number): RequestTarget {
  const text = singleSegment(pathname, rest, offset, 'an operation resource');
  if (text === undefined) return { kind: 'operations' };
  const colon = text.indexOf(':');
  const module = colon === -1 ? undefined : text.slice(0, colon);
  const name = text.slice(colon + 1);
  if ((module !== undefined && !isIdentifier(module)) || !isIdentifier(name)) {
    throw badName('operation name', text, offset + 1);
  }
  return module === undefined ? { kind: 'operation', name } : { kind: 'operation', module, name };
}

function classifySchema(pathname: string, rest: string, offset: number): RequestTarget {
  const text = singleSegment(pathname, rest, offset, 'a schema resource');
  if (text === undefined) return { kind: 'schema' };
  const at = text.indexOf('@');
  const module = at === -1 ? text : text.slice(0, at);
  if (!isIdentifier(module)) throw badName('module name', module, offset + 1);
  if (at === -1) return { kind: 'schema', module };
  const revision = text.slice(at + 1);
  if (!REVISION.test(revision)) throw badName('revision date', revision, offset + 2 + at);
  return { kind: 'schema', module, revision };
}

function classifyStreams(pathname: string, rest: string, offset: number): RequestTarget {
  const text = singleSegment(pathname, rest, offset, 'a stream resource');
  if (text === undefined) return { kind: 'stream' };
  // `<encoding>-<stream-name>`: encodings (xml, json) hold no '-', stream names may.
  const dash = text.indexOf('-');
  if (dash <= 0 || dash === text.length - 1) {
    throw notFound(pathname, `stream '${text}' is not of the form <encoding>-<stream-name>`);
  }
  return { kind: 'stream', encoding: text.slice(0, dash), name: text.slice(dash + 1) };
}

function classifySubscription(pathname: string, rest: string, offset: number): RequestTarget {
  const id = singleSegment(pathname, rest, offset, 'a subscription resource');
  if (id === undefined) throw notFound(pathname, 'a subscription id is required');
  return { kind: 'subscription', id };
}

function classifyNmda(pathname: string, rest: string, offset: number, options: ApiPathLimits): RequestTarget {
  if (rest === '' || rest === '/') throw notFound(pathname, 'a datastore name is required after /ds');
  const slash = rest.indexOf('/', 1);
  const raw = rest.slice(1, slash === -1 ? undefined : slash);
  const text = percentDecode(raw, 'datastore name', offset + 1);
  const colon = text.indexOf(':');
  const module = text.slice(0, colon);
  const name = text.slice(colon + 1);
  // RFC 8527 section 3.1: the datastore is an identity, always written module-qualified.
  if (colon === -1 || !isIdentifier(module) || !isIdentifier(name)) {
    throw badName('datastore identity (module:name)', text, offset + 1);
  }
  const datastore = { module, name };
  const tail = slash === -1 ? '' : rest.slice(slash);
  if (tail === '' || tail === '/') return { kind: 'nmda-datastore', datastore };
  return { kind: 'nmda-data', datastore, path: parseApiPath(tail, apiPathOptions(options, offset + slash)) };
}
