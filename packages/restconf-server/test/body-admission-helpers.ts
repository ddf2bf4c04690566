import { request } from 'node:http';
import type { Gateway } from './harness.js';

const JB = '/restconf/data/example-jukebox:jukebox';

/** A request whose body is sent in two parts, the second when the test says so. */
export interface Upload {
  /** Sends the rest of the body; resolves with the status. */
  finish(): Promise<number>;
  /** Closes the connection without finishing the body. */
  abandon(): void;
}

/** HTTP Basic credentials of `user` (with `trustBasicUser`, the handler takes the user as authenticated before it). */
export const basic = (user: string) => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;

/** Who sends an upload: a user, or without credentials a loopback address of its own (127.0.0.2, say). */
export interface Sender {
  readonly user?: string;
  readonly from?: string;
  readonly chunked?: boolean;
}

/**
 * Starts a PATCH of `body` with its Content-Length (or chunked), sending only its first 1,000
 * bytes, as `user` or from the address `from` when given.
 */
export function startUpload(gw: Gateway, body: string, { user, from, chunked = false }: Sender = {}): Upload {
  const req = request(`${gw.url}${JB}`, {
    method: 'PATCH',
    ...(from === undefined ? {} : { localAddress: from }),
    headers: {
      'Content-Type': 'application/yang-data+json',
      ...(chunked ? {} : { 'Content-Length': Buffer.byteLength(body) }),
      ...(user === undefined ? {} : { Authorization: basic(user) }),
    },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.write(body.slice(0, 1000));
  return {
    finish: () => {
      req.end(body.slice(1000));
      return status;
    },
    abandon: () => {
      status.catch(() => undefined);
      req.destroy();
    },
  };
}

/** The value of a metric without labels in the handler's `/metrics`. */
export async function metric(gw: Gateway, name: string): Promise<number> {
  const text = await (await gw.fetch('/metrics')).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
}

/** Waits (bounded, generously) until the admission counts reach `decoding` and `waiting`. */
export async function untilBodies(gw: Gateway, decoding: number, waiting: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const now = [await metric(gw, 'restconf_bodies_decoding'), await metric(gw, 'restconf_bodies_waiting')];
    if (now[0] === decoding && now[1] === waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the admission never reached ${decoding} decoding and ${waiting} waiting`);
}
