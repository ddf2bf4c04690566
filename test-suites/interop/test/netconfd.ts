import { connectSsh, type NetconfSession } from '@yangkit/netconf-client';

/** The NETCONF server exported by `netconfd/netconfd.sh start` (NETCONF_HOST, _PORT, _USER, _PASSWORD). */
export interface NetconfdTarget {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
}

/** The target from the environment, or undefined when it is not set. */
export function netconfdTarget(env: NodeJS.ProcessEnv = process.env): NetconfdTarget | undefined {
  const { NETCONF_HOST, NETCONF_PORT, NETCONF_USER, NETCONF_PASSWORD } = env;
  if (!NETCONF_HOST || !NETCONF_USER || NETCONF_PASSWORD === undefined) return undefined;
  return {
    host: NETCONF_HOST,
    port: Number(NETCONF_PORT ?? 830),
    user: NETCONF_USER,
    password: NETCONF_PASSWORD,
  };
}

/**
 * In CI the server must be there: a missing one fails the suite instead of skipping it.
 * Elsewhere the suite is skipped when the environment names no server.
 */
export function requireTarget(): NetconfdTarget | undefined {
  const target = netconfdTarget();
  if (target === undefined && process.env.CI === 'true')
    throw new Error(
      'CI=true but NETCONF_HOST/NETCONF_USER/NETCONF_PASSWORD are not set: run test-suites/interop/netconfd/netconfd.sh start',
    );
  return target;
}

/** A direct NETCONF session, as another client of the same server. */
export function directSession(
  t: NetconfdTarget,
  onHostKey?: (fingerprint: string) => void,
): Promise<NetconfSession> {
  return connectSsh({
    host: t.host,
    port: t.port,
    username: t.user,
    password: t.password,
    // The test trusts the loopback server's key on first use and pins it for the gateway.
    hostKey: 'accept-any',
    ...(onHostKey === undefined ? {} : { onHostKey }),
  });
}

/** The SHA256 fingerprint of the server's host key. */
export async function hostKeyFingerprint(t: NetconfdTarget): Promise<string> {
  let fingerprint = '';
  const s = await directSession(t, (fp) => {
    fingerprint = fp;
  });
  await s.close();
  return fingerprint;
}
