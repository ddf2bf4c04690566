import { expect, test } from 'vitest';
import { createFramer, encodeMessage, type NetconfError } from '../src/index.js';

test('the README framing example yields the hello and then the chunked reply', () => {
  const seen: string[] = [];
  const framer = createFramer({
    onMessage: (xml) => seen.push(xml),
    onError: (error: NetconfError) => seen.push(error.code),
    maxMessageBytes: 16 * 1024 * 1024,
  });
  framer.feed(Buffer.from('<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"/>]]>]]>'));
  framer.setMode('chunked');
  const frame = encodeMessage('<rpc-reply/>', 'chunked');
  expect(frame.toString()).toBe('\n#12\n<rpc-reply/>\n##\n');
  framer.feed(frame);
  expect(seen).toEqual(['<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"/>', '<rpc-reply/>']);
});
