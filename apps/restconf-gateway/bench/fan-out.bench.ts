import { benchFanOut, CLIENTS, stampedEventXml } from '../../../packages/restconf-server/bench/fan-out.js';
import { startGateway } from '../src/index.js';

/**
 * Fan-out of one event stream to many SSE clients (see restconf-server's `bench/fan-out.ts`) from
 * the gateway as deployed, its embedded backend (notifications go from the NETCONF server to the
 * stream as trees), beside the bare node:http floor in the same run. The clients all come from
 * one address, so the gateway runs with `--max-requests-per-client` above their number.
 *
 *   cd apps/restconf-gateway && pnpm exec vitest bench --run bench/fan-out.bench.ts
 */
benchFanOut(
  'restconf-gateway (embedded)',
  'restconf-gateway: GET /restconf/streams/json-NETCONF, embedded backend',
  async () => {
    const gateway = await startGateway({ port: 0, logLevel: 'warn', maxRequestsPerClient: CLIENTS + 10 });
    const netconf = gateway.backend.netconf!;
    return {
      url: `${gateway.url}/restconf/streams/json-NETCONF`,
      publish: (seq) => netconf.publish(stampedEventXml(seq)),
      close: () => gateway.close(),
    };
  },
);
