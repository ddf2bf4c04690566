import { afterAll, bench, describe } from 'vitest';
import {
  CLIENTS,
  EVENTS,
  type FanOut,
  fanOutTable,
  measureFanOut,
  measureFloor,
  RATE,
  stampedEventXml,
} from '../../../packages/restconf-server/bench/fan-out.js';
import { startGateway } from '../src/index.js';

/**
 * Fan-out of one event stream to many SSE clients (see restconf-server's `bench/fan-out.ts`) from
 * the gateway as deployed, its embedded backend (notifications go from the NETCONF server to the
 * stream as trees), beside the bare node:http floor in the same run. The clients all come from
 * one address, so the gateway runs with `--max-requests-per-client` above their number.
 *
 *   cd apps/restconf-gateway && pnpm exec vitest bench --run bench/fan-out.bench.ts
 */

const results = new Map<string, FanOut>();
const once1 = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`SSE fan-out: ${CLIENTS} clients x ${EVENTS} notifications at ${RATE}/s`, () => {
  bench(
    'floor: bare node:http SSE server, same writer, message and fan-out',
    async () => {
      results.set('floor', await measureFloor());
    },
    once1,
  );

  bench(
    'restconf-gateway: GET /restconf/streams/json-NETCONF, embedded backend',
    async () => {
      const gateway = await startGateway({ port: 0, logLevel: 'warn', maxRequestsPerClient: CLIENTS + 10 });
      try {
        const netconf = gateway.backend.netconf!;
        results.set(
          'gateway',
          await measureFanOut(`${gateway.url}/restconf/streams/json-NETCONF`, (seq) =>
            netconf.publish(stampedEventXml(seq)),
          ),
        );
      } finally {
        await gateway.close();
      }
    },
    once1,
  );
});

afterAll(() => {
  console.log(
    fanOutTable([
      ['node:http floor', results.get('floor')],
      ['restconf-gateway (embedded)', results.get('gateway')],
    ]),
  );
});
