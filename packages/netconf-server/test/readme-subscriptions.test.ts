import path from 'node:path';
import { connectStream } from '@yangkit/netconf-client';
import { expect, test } from 'vitest';
import { duplexPair, loadServerSchema, NetconfServer } from '../src/index.js';

const yangDir = path.resolve(__dirname, '../../../yang');
const SN = 'urn:ietf:params:xml:ns:yang:ietf-subscribed-notifications';

test('the README modify-subscription example works', async () => {
  const schema = await loadServerSchema({ paths: [yangDir], modules: ['example-mod'] });
  const server = await NetconfServer.create({ schema });
  const [a, b] = duplexPair();
  server.connect(a, { username: 'admin' });
  const session = await connectStream(b);
  const notifications = session.notifications();

  const reply = await session.rpc(
    `<establish-subscription xmlns="${SN}"><stream>NETCONF</stream>
       <stream-xpath-filter>/example-mod:event[example-mod:severity='major']</stream-xpath-filter>
     </establish-subscription>`,
  );
  const id = /<id[^>]*>(\d+)</.exec(reply.xml)![1];
  await session.rpc(
    `<modify-subscription xmlns="${SN}"><id>${id}</id>
       <stream-xpath-filter>/example-mod:event[example-mod:severity='critical']</stream-xpath-filter>
     </modify-subscription>`,
  );
  expect((await notifications.next()).value.xml).toContain('<subscription-modified');
  server.publish(
    '<event xmlns="http://example.com/event/1.0"><event-class>fault</event-class><severity>critical</severity></event>',
  );
  expect((await notifications.next()).value.xml).toContain('<severity>critical</severity>');

  const state = await session.get({ filter: { subtree: `<subscriptions xmlns="${SN}"/>` } });
  expect(state).toContain('<sent-event-records>1</sent-event-records>');
  expect(state).toContain('<name>session-1</name>');
  await session.close();
  await server.close();
});

test('the README timeout options are accepted', async () => {
  const schema = await loadServerSchema({ paths: [yangDir], modules: ['example-mod'] });
  const server = await NetconfServer.create({ schema, helloTimeout: 30, idleTimeout: 600 });
  expect(server.helloTimeoutMs).toBe(30_000);
  expect(server.idleTimeoutMs).toBe(600_000);
  await server.close();
});
