import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built single-page app (`vite build`), beside both `src/` and `dist/`. */
export const EXPLORER_APP_DIR: string = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../dist/app',
);

/** Options of {@link createExplorerHandler}. */
export interface ExplorerOptions {
  /** The path the explorer is served at, ending in `/` (default `/explorer/`). */
  readonly basePath?: string;
  /** Where the built app is (default {@link EXPLORER_APP_DIR}). */
  readonly appDir?: string;
}

/** Answers the explorer's requests; false (nothing written) for any other path. */
export type ExplorerHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** A file name of the built app: no folders above it, no hidden files, a known type. */
const SAFE_NAME = /^(?:assets\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A `node:http` handler of the explorer app: `GET` or `HEAD` of `basePath` answers its page, of
 * `basePath` + a file name one of its files (fingerprinted ones cached for a year), of the base
 * path without its slash a redirect. The files are read once, at creation; a name that is not a
 * file of the app answers 404, another method 405, and every path 503 when the app is not built. The app reads the OpenAPI document at
 * `../openapi.json` from its page, and RESTCONF with the page's credentials.
 */
export function createExplorerHandler(options: ExplorerOptions = {}): ExplorerHandler {
  const base = options.basePath ?? '/explorer/';
  const dir = options.appDir ?? EXPLORER_APP_DIR;
  const files = new Map<string, { body: Buffer; type: string }>();
  const read = (name: string): void => {
    const type = TYPES[path.extname(name)];
    if (type !== undefined) files.set(name, { body: readFileSync(path.join(dir, name)), type });
  };
  let built = true;
  try {
    read('index.html');
    const assets = JSON.parse(readFileSync(path.join(dir, 'files.json'), 'utf8')) as string[];
    for (const name of assets) if (SAFE_NAME.test(name)) read(name);
  } catch {
    // Not built (a checkout without `pnpm build`): the explorer says so instead of failing its server.
    built = false;
    files.clear();
  }

  return (req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    if (url === base.slice(0, -1)) {
      res.writeHead(301, { Location: base }).end();
      return true;
    }
    if (!url.startsWith(base)) return false;
    if (!built) {
      res
        .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('the explorer is not built: run pnpm build\n');
      return true;
    }
    const name = url === base ? 'index.html' : url.slice(base.length);
    const file = files.get(name);
    const method = req.method ?? 'GET';
    if (file === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    } else if (method !== 'GET' && method !== 'HEAD') {
      res
        .writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' })
        .end('method not allowed\n');
    } else {
      res.writeHead(200, {
        'Content-Type': file.type,
        'Content-Length': file.body.length,
        'Cache-Control': name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        // The app loads its own scripts and styles and talks to its own origin only.
        'Content-Security-Policy':
          "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      });
      res.end(method === 'HEAD' ? undefined : file.body);
    }
    return true;
  };
}
