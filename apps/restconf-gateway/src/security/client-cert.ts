import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import { type CertToName, certToName } from './cert-to-name.js';

/** Longest certificate chain walked (client certificate and its CAs). */
const MAX_CHAIN = 10;

/** The TLS socket of a request: its own for HTTP/1.1, its session's for HTTP/2. */
export function tlsSocketOf(req: IncomingMessage): TLSSocket | undefined {
  const stream = (req as IncomingMessage & { stream?: { session?: { socket?: unknown } } }).stream;
  const socket = req.httpVersionMajor === 2 ? stream?.session?.socket : req.socket;
  return socket !== undefined && typeof (socket as TLSSocket).getPeerCertificate === 'function'
    ? (socket as TLSSocket)
    : undefined;
}

/**
 * The verified certificate chain the client presented, client certificate first, or an empty
 * list when it presented none or it did not chain to the trusted CAs (`socket.authorized`).
 */
export function verifiedChain(socket: TLSSocket): X509Certificate[] {
  if (!socket.authorized) return [];
  const chain: X509Certificate[] = [];
  let peer: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  const seen = new Set<DetailedPeerCertificate>();
  while (peer?.raw !== undefined && !seen.has(peer) && chain.length < MAX_CHAIN) {
    seen.add(peer);
    chain.push(new X509Certificate(peer.raw));
    // A self-signed root is its own issuer.
    peer = peer.issuerCertificate === peer ? undefined : peer.issuerCertificate;
  }
  return chain;
}

/**
 * Client-certificate authentication (RFC 8040 section 2.5): returns the user a request's verified
 * client certificate maps to by `entries` (RFC 7589 section 7), or undefined when the client
 * presented no verified certificate or no entry yields a name. The answer is kept per TLS
 * connection, which all its requests (and HTTP/2 streams) share.
 */
export function clientCertAuth(entries: readonly CertToName[]): (req: IncomingMessage) => string | undefined {
  const users = new WeakMap<TLSSocket, string | null>();
  return (req) => {
    const socket = tlsSocketOf(req);
    if (socket === undefined) return undefined;
    let user = users.get(socket);
    if (user === undefined) {
      try {
        user = certToName(entries, verifiedChain(socket)) ?? null;
      } catch {
        // A certificate node:crypto cannot read maps to nobody; Basic may still apply.
        user = null;
      }
      users.set(socket, user);
    }
    return user ?? undefined;
  };
}
