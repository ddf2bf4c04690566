import { formatApiPath } from './api-path.js';
import { RestconfUriError } from './errors.js';
import { isIdentifier } from './identifier.js';
import { percentEncode } from './percent-encoding.js';
import type { RequestTarget } from './request-target.js';

/** Options of {@link formatTarget}. */
export interface FormatTargetOptions {
  /** The `{+restconf}` root path. Default `/restconf`. */
  readonly root?: string;
}

function qualified(module: string | undefined, name: string): string {
  if ((module !== undefined && !isIdentifier(module)) || !isIdentifier(name)) {
    throw new RestconfUriError('FORMAT_UNREPRESENTABLE', `'${name}' is not [module:]identifier`, {
      badValue: name,
    });
  }
  return module === undefined ? name : `${module}:${name}`;
}

/**
 * Formats a {@link RequestTarget} as a request path under `root`, the inverse of
 * {@link classifyTarget}: `classifyTarget(formatTarget(t, o), o)` equals `t`. Names that are
 * not plain identifiers (stream names, subscription ids) are percent-encoded.
 *
 * @throws {RestconfUriError} `FORMAT_UNREPRESENTABLE` for names the path syntax cannot carry
 */
export function formatTarget(target: RequestTarget, options: FormatTargetOptions = {}): string {
  const raw = options.root ?? '/restconf';
  const slashed = raw.startsWith('/') ? raw : `/${raw}`;
  const root = slashed.endsWith('/') ? slashed.slice(0, -1) : slashed;
  switch (target.kind) {
    case 'well-known-host-meta':
      return target.format === 'json' ? '/.well-known/host-meta.json' : '/.well-known/host-meta';
    case 'api-root':
      return root === '' ? '/' : root;
    case 'datastore':
      return `${root}/data`;
    case 'data':
      return `${root}/data${formatApiPath(target.path)}`;
    case 'operations':
      return `${root}/operations`;
    case 'operation':
      return `${root}/operations/${qualified(target.module, target.name)}`;
    case 'yang-library-version':
    case 'version':
      return `${root}/${target.kind}`;
    case 'schema': {
      if (target.module === undefined) return `${root}/yang`;
      const revision = target.revision === undefined ? '' : `@${target.revision}`;
      return `${root}/yang/${qualified(undefined, target.module)}${revision}`;
    }
    case 'stream':
      if (target.name === undefined || target.encoding === undefined) return `${root}/streams`;
      if (target.encoding === '' || target.encoding.includes('-') || target.name === '') {
        throw new RestconfUriError(
          'FORMAT_UNREPRESENTABLE',
          `stream encoding '${target.encoding}' and name '${target.name}' do not form <encoding>-<name>`,
          { badValue: target.encoding },
        );
      }
      return `${root}/streams/${percentEncode(target.encoding)}-${percentEncode(target.name)}`;
    case 'subscription':
      if (target.id === '') {
        throw new RestconfUriError('FORMAT_UNREPRESENTABLE', 'a subscription id cannot be empty', {
          badValue: '',
        });
      }
      return `${root}/subscriptions/${percentEncode(target.id)}`;
    case 'nmda-datastore':
      return `${root}/ds/${qualified(target.datastore.module, target.datastore.name)}`;
    case 'nmda-data':
      return `${root}/ds/${qualified(target.datastore.module, target.datastore.name)}${formatApiPath(target.path)}`;
  }
}
