// One worker process of the SSE clients of streams.bench.ts: the bench forks several, each with a
// share of the clients, so that reading millions of events shares neither the event loop nor the
// thread of the server that writes them, nor one client process's single core.
// Input: one JSON argument { url, clients, events }. Over IPC: sends { type: 'ready' } once every
// client has its response head; answers { type: 'progress' } with { type: 'progress', delivered }
// and { type: 'report' } with its counts and latency histogram (see `report` below), then exits.
// Each event carries "event-class":"SEQ:SENT" with SENT the publisher's wall clock in ms
// (performance.timeOrigin + performance.now()); delivery latency is the same clock here minus SENT.
import { get } from 'node:http';

const { url, clients } = JSON.parse(process.argv[2] ?? '{}');
const MARK = '"event-class":"';
/** Latency histogram: buckets of BUCKET_MS up to BUCKETS * BUCKET_MS, the last one open-ended. */
const BUCKET_MS = 0.1;
const BUCKETS = 100_000;
const histogram = new Uint32Array(BUCKETS + 1);
let maxLatency = 0;
let delivered = 0;
let outOfOrder = 0;
let ended = 0;
let ready = 0;
/** Comment lines other than keepalives, with how many clients saw each. */
const comments = new Map();
const responses = [];

function record(latency) {
  histogram[Math.min(BUCKETS, Math.max(0, Math.floor(latency / BUCKET_MS)))]++;
  if (latency > maxLatency) maxLatency = latency;
  delivered++;
}

function countComments(text) {
  if (!text.startsWith(':') && !text.includes('\n:')) return;
  for (const line of text.split('\n')) {
    if (!line.startsWith(':') || line === ':SSE keepalive') continue;
    comments.set(line, (comments.get(line) ?? 0) + 1);
  }
}

function connect(index) {
  let expected = 0;
  let carry = '';
  const req = get(url, { headers: { accept: 'text/event-stream' }, agent: false }, (res) => {
    responses.push(res);
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      const now = performance.timeOrigin + performance.now();
      const text = carry + chunk;
      const end = text.lastIndexOf('\n\n');
      if (end < 0) {
        carry = text;
        return;
      }
      carry = text.slice(end + 2);
      for (let at = text.indexOf(MARK); at !== -1 && at < end; at = text.indexOf(MARK, at)) {
        at += MARK.length;
        const colon = text.indexOf(':', at);
        const quote = text.indexOf('"', colon);
        const seq = Number(text.slice(at, colon));
        if (seq !== expected) outOfOrder++;
        expected = seq + 1;
        record(now - Number(text.slice(colon + 1, quote)));
      }
      countComments(text.slice(0, end));
    });
    res.on('end', () => {
      // A comment that ends the stream (overflow) has no blank line after it.
      countComments(carry);
      ended++;
    });
    res.on('error', () => {});
    if (++ready === clients) process.send({ type: 'ready' });
  });
  req.on('error', (error) => process.send({ type: 'error', message: `client ${index}: ${error.message}` }));
}

for (let i = 0; i < clients; i++) connect(i);

process.on('message', (message) => {
  if (message.type === 'progress') {
    process.send({ type: 'progress', delivered });
    return;
  }
  if (message.type !== 'report') return;
  /** The histogram as [bucket, count] pairs of its non-empty buckets. */
  const buckets = [];
  for (let i = 0; i <= BUCKETS; i++) if (histogram[i] !== 0) buckets.push([i, histogram[i]]);
  process.send(
    {
      type: 'report',
      delivered,
      outOfOrder,
      ended,
      comments: [...comments],
      bucketMs: BUCKET_MS,
      buckets,
      max: maxLatency,
    },
    () => {
      for (const res of responses) res.destroy();
      process.exit(0);
    },
  );
});
