import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerRefusal, type RefusalEncoding } from './refusal.js';

/** Who may read the monitoring pages, and which pages are served. */
export interface MonitoringAccessOptions {
  /** The users allowed; undefined when the server authenticates nobody (then everyone is). */
  readonly users: ReadonlySet<string> | undefined;
  readonly metrics: boolean;
  readonly serverStatus: boolean;
  /** How a refusal is encoded when the request does not say (the handler's settings). */
  readonly encoding?: RefusalEncoding;
}

/**
 * Keeps `/metrics` and `/server-status` to the users named: their figures (request counts,
 * refused logins, sessions) tell an attacker how the server is used and how it resists. Returns
 * a check that answers 403 `access-denied` and returns false for anyone else; requests for other
 * paths, or for a page that is not served (the handler answers 404), pass.
 */
export function monitoringAccess(
  options: MonitoringAccessOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const pages = new Set([
    ...(options.metrics ? ['/metrics'] : []),
    ...(options.serverStatus ? ['/server-status'] : []),
  ]);
  return (req, res) => {
    if (options.users === undefined || !pages.has((req.url ?? '/').split('?')[0]!)) return true;
    const user = (req as IncomingMessage & { remoteUser?: string }).remoteUser;
    if (user !== undefined && options.users.has(user)) return true;
    answerRefusal(
      req,
      res,
      { errorTag: 'access-denied', message: 'only monitoring users may read this page' },
      options.encoding ?? {},
    );
    return false;
  };
}
