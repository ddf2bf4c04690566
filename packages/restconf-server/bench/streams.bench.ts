import { startGateway } from '../test/harness.js';
import { benchFanOut, stampedEventXml } from './fan-out.js';

/**
 * Fan-out of one event stream to many SSE clients (see `fan-out.ts`): the handler on
 * `/restconf/streams/json-NETCONF` over the embedded NETCONF server through a NETCONF session,
 * beside the floor in the same run.
 */
benchFanOut(
  'restconf-server',
  'restconf-server: GET /restconf/streams/json-NETCONF over the embedded NETCONF server',
  async () => {
    const gw = await startGateway();
    return {
      url: `${gw.url}/restconf/streams/json-NETCONF`,
      publish: (seq) => gw.netconf.publish(stampedEventXml(seq)),
      close: () => gw.close(),
    };
  },
);
