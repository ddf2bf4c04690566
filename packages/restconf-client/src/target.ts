import { type ApiPath, type ApiPathSegment, parseApiPath, RestconfUriError } from '@yangkit/restconf-uri';
import { RestconfClientError } from './errors.js';

/**
 * A data resource below `{+restconf}/data`: api-path text as RFC 8040 section 3.5.3 writes it
 * (`/example-jukebox:jukebox/library/artist=Foo%20Fighters`, keys percent-encoded), a parsed
 * {@link ApiPath}, or its segments. `''` and `'/'` name the datastore itself.
 */
export type PathInput = string | ApiPath | readonly ApiPathSegment[];

/** Turns a {@link PathInput} into an {@link ApiPath}, validating text with restconf-uri. */
export function toApiPath(path: PathInput): ApiPath {
  if (typeof path !== 'string') return Array.isArray(path) ? { segments: path } : (path as ApiPath);
  if (path === '' || path === '/') return { segments: [] };
  try {
    return parseApiPath(path.startsWith('/') ? path : `/${path}`);
  } catch (error) {
    if (RestconfUriError.isInstance(error)) {
      throw new RestconfClientError('INVALID_ARGUMENT', `invalid api-path '${path}': ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** The module of the last segment, or of the nearest segment before it that names one. */
export function moduleOf(path: ApiPath): string | undefined {
  for (let i = path.segments.length - 1; i >= 0; i--) {
    const module = path.segments[i]?.module;
    if (module !== undefined) return module;
  }
  return undefined;
}

/** Splits `module:name`; the module is optional (RFC 8040 section 3.6). */
export function splitQualified(name: string): { module?: string; name: string } {
  const colon = name.indexOf(':');
  return colon < 0 ? { name } : { module: name.slice(0, colon), name: name.slice(colon + 1) };
}

/** Runs a restconf-uri formatter, turning its errors into `INVALID_ARGUMENT`. */
export function viaUri<T>(format: () => T): T {
  try {
    return format();
  } catch (error) {
    if (RestconfUriError.isInstance(error)) {
      throw new RestconfClientError('INVALID_ARGUMENT', error.message, { cause: error });
    }
    throw error;
  }
}
