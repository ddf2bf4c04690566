import fc from 'fast-check';
import { expect, test } from 'vitest';
import { connectStream } from '../src/client.js';
import { NetconfError } from '../src/errors.js';
import { encodeMessage } from '../src/framing.js';
import { fakeServer } from './helpers.js';

const fragments = fc.constantFrom(
  '\n#',
  '\n##\n',
  '12\n',
  '<rpc-reply xmlns="urn:ietf:params:xml:ns:netconf:base:1.0" message-id="1">',
  '</rpc-reply>',
  '<ok/>',
  '<data>',
  '</data>',
  '<rpc-error><error-tag>x</error-tag></rpc-error>',
  '<notification xmlns="urn:ietf:params:xml:ns:netconf:notification:1.0">',
  '<!DOCTYPE x>',
  '&amp;',
  ']]>]]>',
);

test('whatever the server sends after the hello, the session stays up or ends with a NetconfError', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.oneof(fragments, fc.string({ maxLength: 10 })), { maxLength: 12 }),
      fc.boolean(),
      async (parts, framed) => {
        const { client, server } = fakeServer({ handler: () => undefined });
        const session = await connectStream(client, { rpcTimeout: 50 });
        const pending = session.get().catch((e: unknown) => e);
        const text = parts.join('');
        server.stream.write(framed && text !== '' ? encodeMessage(text, 'chunked') : Buffer.from(text));
        const outcome = await pending;
        if (!(typeof outcome === 'string')) expect(NetconfError.isInstance(outcome)).toBe(true);
        if (session.endReason?.error) expect(NetconfError.isInstance(session.endReason.error)).toBe(true);
        session.destroy();
      },
    ),
    { numRuns: 150 },
  );
});
