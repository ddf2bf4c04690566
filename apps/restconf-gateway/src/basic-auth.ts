import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoginThrottle } from './security/login-throttle.js';
import { answerRefusal, type Refusal, type RefusalEncoding } from './security/refusal.js';

/** The verdict on a user name and password: `busy` when the server cannot check it now. */
export type PasswordVerdict = 'valid' | 'invalid' | 'busy';

/** Checks a user name and password. */
export type PasswordCheck = (user: string, password: string) => Promise<PasswordVerdict>;

/** Why a login was refused. */
export type LoginRefusalReason =
  /** No or malformed credentials: 401 with a challenge, as any first request of a client. */
  | 'no-credentials'
  /** A wrong user name or password: 401. */
  | 'invalid-credentials'
  /** Too many failures or logins in progress for the address or user name: 429. */
  | 'throttled'
  /** Too many logins waiting for a check: 503. */
  | 'busy';

/** A login refused by {@link basicAuth}, as told to its `onRefused`. */
export interface LoginRefusal {
  readonly reason: LoginRefusalReason;
  /** The user name the credentials gave, if any. */
  readonly user: string | undefined;
  /** What the request was answered. */
  readonly answer: Refusal;
}

/** How long a verified user name and password are let in without another check. */
const VERIFIED_MS = 60_000;
/** Verified credentials remembered at most. */
const MAX_VERIFIED = 10_000;
/** What a verdict makes of the login for the throttle. */
const OUTCOME = { valid: 'success', invalid: 'failure', busy: 'unchecked' } as const;
/** The challenge of a 401 (RFC 7617 section 2). */
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="restconf", charset="UTF-8"' };

/**
 * The user name and password of an HTTP Basic `Authorization` header (RFC 7617 section 2), or
 * undefined when the request has none or it is malformed.
 */
export function basicCredentials(req: IncomingMessage): { user: string; password: string } | undefined {
  const m = /^Basic +([A-Za-z0-9+/=]{1,1024})$/i.exec(req.headers.authorization ?? '');
  if (m === null) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Records the user a request was authenticated as where the RESTCONF handler (and
 * connect/express middleware) looks for it: `req.remoteUser` and `req.user`.
 */
export function setRemoteUser(req: IncomingMessage, user: string): void {
  const r = req as IncomingMessage & { remoteUser?: string; user?: string };
  r.remoteUser = user;
  r.user = user;
}

/** The 401 of missing or wrong credentials (RFC 8040 sections 2.5 and 7: access-denied). */
const DENIED: Refusal = {
  errorTag: 'access-denied',
  reason: 'unauthenticated',
  message: 'authentication required',
};

/** The 429 of a throttled login or the 503 of a busy server, with `Retry-After` in seconds. */
function slowDown(reason: 'throttled' | 'busy', retryAfter: number): Refusal {
  return {
    errorTag: 'resource-denied',
    reason: reason === 'busy' ? 'unavailable' : 'too-many-requests',
    message:
      reason === 'busy'
        ? 'too many logins are waiting to be checked; try again later'
        : 'too many failed logins; try again later',
    headers: { 'Retry-After': String(retryAfter) },
  };
}

/**
 * Answers 401 with an `access-denied` error body (RFC 8040 section 7); with `challenge`, a Basic
 * `WWW-Authenticate` (RFC 7235 section 3.1). Without it the client can only authenticate with a
 * certificate, for which HTTP has no challenge.
 */
export function denyAccess(
  req: IncomingMessage,
  res: ServerResponse,
  challenge: boolean,
  encoding: RefusalEncoding = {},
): void {
  answerRefusal(req, res, challenge ? { ...DENIED, headers: CHALLENGE } : DENIED, encoding);
}

/** Compares two strings in a time that tells nothing of where they differ, nor of their lengths. */
function same(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The {@link PasswordCheck} of one user with a password given in clear (`--http-user`). */
export function singleUserCheck(user: string, password: string): PasswordCheck {
  return (givenUser, givenPassword) => {
    // Both compared, so the time does not tell whether the user name was right.
    const userMatches = same(givenUser, user);
    const passwordMatches = same(givenPassword, password);
    return Promise.resolve(userMatches && passwordMatches ? 'valid' : 'invalid');
  };
}

/** Settings of {@link basicAuth}. */
export interface BasicAuthOptions {
  readonly check: PasswordCheck;
  readonly throttle: LoginThrottle;
  /** How refusals are encoded when the request does not say (the handler's settings). */
  readonly encoding?: RefusalEncoding;
  /** Told of each refused login after its answer was written, e.g. to audit and count it. */
  readonly onRefused?: (req: IncomingMessage, res: ServerResponse, refusal: LoginRefusal) => void;
}

/**
 * HTTP Basic authentication (RFC 7617). Resolves with the user the request authenticated as;
 * otherwise it has answered the request and resolves undefined: 401 with a challenge for missing
 * or wrong credentials, 429 with `Retry-After` when the throttle holds the address or user back,
 * 503 with `Retry-After` when too many logins wait for a check.
 *
 * Credentials verified in the last minute are let in without another check, before the throttle:
 * a user whose address is shared with an attacker keeps working. Requests that carry the same
 * credentials while they are being checked share that one check.
 */
export function basicAuth(
  options: BasicAuthOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<string | undefined> {
  const { check, throttle } = options;
  // Keyed by an HMAC under a key of this process, so the table holds nothing a password can be
  // guessed from offline.
  const key = randomBytes(32);
  const verified = new Map<string, number>();
  const checking = new Map<string, Promise<PasswordVerdict>>();
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    reason: LoginRefusalReason,
    user: string | undefined,
    retryAfter = 1,
  ): undefined => {
    const answer =
      reason === 'throttled' || reason === 'busy'
        ? slowDown(reason, retryAfter)
        : { ...DENIED, headers: CHALLENGE };
    answerRefusal(req, res, answer, options.encoding ?? {});
    options.onRefused?.(req, res, { reason, user, answer });
    return undefined;
  };
  const verify = (digest: string, address: string, user: string, password: string) => {
    const verdict = check(user, password)
      .catch((): PasswordVerdict => 'invalid')
      .then((v) => {
        checking.delete(digest);
        throttle.settle(address, user, OUTCOME[v]);
        if (v === 'valid') {
          if (verified.size >= MAX_VERIFIED) verified.clear();
          verified.set(digest, Date.now() + VERIFIED_MS);
        }
        return v;
      });
    checking.set(digest, verdict);
    return verdict;
  };
  return async (req, res) => {
    const given = basicCredentials(req);
    if (given === undefined) return refuse(req, res, 'no-credentials', undefined);
    const { user, password } = given;
    const digest = createHmac('sha256', key).update(`${user}\0${password}`).digest('base64');
    if ((verified.get(digest) ?? 0) > Date.now()) return user;
    let verdict = checking.get(digest);
    if (verdict === undefined) {
      const address = req.socket.remoteAddress ?? '';
      const wait = throttle.admit(address, user);
      if (wait > 0) return refuse(req, res, 'throttled', user, wait);
      verdict = verify(digest, address, user, password);
    }
    const v = await verdict;
    if (v === 'valid') return user;
    return refuse(req, res, v === 'busy' ? 'busy' : 'invalid-credentials', user);
  };
}
