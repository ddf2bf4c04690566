import { afterAll, bench, describe } from 'vitest';
import { startGateway } from '../test/harness.js';
import {
  CLIENTS,
  EVENTS,
  type FanOut,
  fanOutTable,
  measureFanOut,
  measureFloor,
  RATE,
  stampedEventXml,
} from './fan-out.js';

/**
 * Fan-out of one event stream to many SSE clients (see `fan-out.ts`): the handler on
 * `/restconf/streams/json-NETCONF` over the embedded NETCONF server through a NETCONF session,
 * beside the floor in the same run.
 */

const results = new Map<string, FanOut>();
const once1 = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

describe(`SSE fan-out: ${CLIENTS} clients x ${EVENTS} notifications at ${RATE}/s`, () => {
  bench(
    'floor: bare node:http SSE server, same writer, message and fan-out',
    async () => {
      results.set('baseline', await measureFloor());
    },
    once1,
  );

  bench(
    'restconf-server: GET /restconf/streams/json-NETCONF over the embedded NETCONF server',
    async () => {
      const gw = await startGateway();
      try {
        results.set(
          'gateway',
          await measureFanOut(`${gw.url}/restconf/streams/json-NETCONF`, (seq) =>
            gw.netconf.publish(stampedEventXml(seq)),
          ),
        );
      } finally {
        await gw.close();
      }
    },
    once1,
  );
});

afterAll(() => {
  console.log(
    fanOutTable([
      ['node:http floor', results.get('baseline')],
      ['restconf-server', results.get('gateway')],
    ]),
  );
});
