import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { Writable } from 'node:stream';
import { expectTypeOf, test } from 'vitest';
import type { SseEvent, SseResponseHead, SseSink } from '../src/index.js';

test('a Node Writable, an HTTP/1 response and an HTTP/2 compatibility response are sinks', () => {
  expectTypeOf<Writable>().toExtend<SseSink>();
  expectTypeOf<ServerResponse>().toExtend<SseSink>();
  expectTypeOf<Http2ServerResponse>().toExtend<SseSink>();
});

test('HTTP/1 and HTTP/2 responses can take the event stream head', () => {
  expectTypeOf<ServerResponse>().toExtend<SseResponseHead>();
  expectTypeOf<Http2ServerResponse>().toExtend<SseResponseHead>();
});

test('an event needs data and nothing else', () => {
  expectTypeOf<{ data: string }>().toExtend<SseEvent>();
  expectTypeOf<{ event: string }>().not.toExtend<SseEvent>();
});
