// The SSE clients of streams.bench.ts, in a Node process of their own so that reading millions of
// events shares neither the event loop nor the thread of the server that writes them.
// Input: one JSON argument { url, clients, events }. Over IPC: sends { type: 'ready' } once every
// client has its response head; answers { type: 'progress' } with { type: 'progress', delivered }
// and { type: 'report' } with the summary below, then exits.
// Each event carries "event-class":"SEQ:SENT" with SENT the publisher's wall clock in ms
// (performance.timeOrigin + performance.now()); delivery latency is the same clock here minus SENT.
import { get } from 'node:http';

const { url, clients, events } = JSON.parse(process.argv[2] ?? '{}');
const MARK = /"event-class":"(\d+):([\d.]+)"/g;
const latencies = new Float64Array(clients * events);
let delivered = 0;
let outOfOrder = 0;
let ended = 0;
let ready = 0;
/** Comment lines other than keepalives, with how many clients saw each. */
const comments = new Map();
const responses = [];

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
      const complete = text.slice(0, end + 1);
      MARK.lastIndex = 0;
      for (let m = MARK.exec(complete); m !== null; m = MARK.exec(complete)) {
        const seq = Number(m[1]);
        if (seq !== expected) outOfOrder++;
        expected = seq + 1;
        latencies[delivered++] = now - Number(m[2]);
      }
      for (const line of complete.split('\n')) {
        if (!line.startsWith(':') || line === ':SSE keepalive') continue;
        comments.set(line, (comments.get(line) ?? 0) + 1);
      }
    });
    res.on('end', () => ended++);
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
  const sorted = latencies.subarray(0, delivered).sort();
  const at = (q) =>
    delivered === 0 ? Number.NaN : sorted[Math.min(delivered - 1, Math.floor(delivered * q))];
  process.send(
    {
      type: 'report',
      delivered,
      outOfOrder,
      ended,
      comments: [...comments],
      p50: at(0.5),
      p99: at(0.99),
      max: at(1),
    },
    () => {
      for (const res of responses) res.destroy();
      process.exit(0);
    },
  );
});
