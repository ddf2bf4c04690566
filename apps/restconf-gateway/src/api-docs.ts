import type { IncomingMessage, ServerResponse } from 'node:http';
import { schemaVisibility } from '@yangkit/netconf-server';
import { createExplorerHandler, type ExplorerHandler } from '@yangkit/restconf-explorer';
import { type OpenApiOptions, toOpenApi } from '@yangkit/restconf-openapi';
import { answerErrors, RestconfError } from '@yangkit/restconf-server';
import type { BackendSetup } from './embedded.js';
import type { GatewayOptions } from './options.js';
import { refusalEncoding } from './security/refusal.js';

/** Users whose documents are kept; the cache starts over beyond. */
const MAX_CACHED_USERS = 64;

/** `/openapi/{module}.json`; a module name is a YANG identifier (RFC 7950 section 6.2). */
const MODULE_DOCUMENT = /^\/openapi\/([A-Za-z_][A-Za-z0-9_.-]{0,127})\.json$/;

/**
 * The gateway's API documentation beside the RESTCONF root: the OpenAPI 3.1 document of every
 * module at `/openapi.json`, of one at `/openapi/{module}.json` (@yangkit/restconf-openapi), and
 * the web explorer at `/explorer/` (@yangkit/restconf-explorer) when `explorer` is on. With NACM,
 * a user's documents list only what the rules let the user read or run; the `--nacm-admin` user
 * sees all. Documents are made on first request and kept per user until the rules change.
 * Returns the request handler: true when it answered.
 */
export function apiDocs(
  setup: BackendSetup,
  options: GatewayOptions,
  explorer: boolean,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const base: OpenApiOptions = {
    root: (options.restconfRoot ?? '/restconf').replace(/\/+$/, '') || '/restconf',
    simpleNames: options.simpleJsonNames ?? false,
    security: {
      basic: options.httpUser !== undefined || options.usersFile !== undefined,
      mutualTls: options.tlsCa !== undefined,
    },
  };
  const nacm = setup.netconf?.nacm;
  // The rules in force for a user: none without NACM and for the recovery user.
  const rulesOf = (user: string | undefined) =>
    nacm !== undefined && user !== options.nacmAdmin ? nacm.currentConfig() : undefined;
  const cache = new Map<string, { rules: unknown; documents: Map<string, string> }>();
  const documentOf = (user: string | undefined, module: string | undefined): string | undefined => {
    if (module !== undefined && setup.schema.moduleByName(module)?.implemented !== true) return undefined;
    const rules = rulesOf(user);
    const key = rules === undefined ? '' : `user:${user ?? ''}`;
    let entry = cache.get(key);
    if (entry === undefined || entry.rules !== rules) {
      if (cache.size >= MAX_CACHED_USERS) cache.clear();
      entry = { rules, documents: new Map() };
      cache.set(key, entry);
    }
    let text = entry.documents.get(module ?? '');
    if (text === undefined) {
      const include = rules === undefined ? undefined : schemaVisibility(setup.schema, rules, user ?? '');
      const document = toOpenApi(setup.schema, {
        ...base,
        ...(module === undefined ? {} : { modules: [module] }),
        ...(include === undefined ? {} : { include }),
      });
      text = JSON.stringify(document);
      entry.documents.set(module ?? '', text);
    }
    return text;
  };
  const encoding = refusalEncoding(options);
  const ui: ExplorerHandler | undefined = explorer ? createExplorerHandler() : undefined;

  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const one = MODULE_DOCUMENT.exec(path);
    if (path !== '/openapi.json' && one === null && !path.startsWith('/openapi/'))
      return ui?.(req, res) ?? false;
    const method = req.method ?? 'GET';
    const refuse = (error: RestconfError): true => {
      answerErrors(req, res, [error], encoding);
      return true;
    };
    if (method !== 'GET' && method !== 'HEAD') {
      return refuse(
        new RestconfError('METHOD_NOT_ALLOWED', `${method} is not allowed on the API document`, {
          errorTag: 'operation-not-supported',
          allow: ['GET', 'HEAD'],
        }),
      );
    }
    const module = one?.[1];
    const text =
      path === '/openapi.json' || module !== undefined
        ? documentOf((req as { remoteUser?: string }).remoteUser, module)
        : undefined;
    if (text === undefined) {
      return refuse(
        new RestconfError('NOT_FOUND', `no module ${module ?? path} is implemented`, {
          errorTag: 'invalid-value',
        }),
      );
    }
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-cache',
    });
    res.end(method === 'HEAD' ? undefined : text);
    return true;
  };
}
