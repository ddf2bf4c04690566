// The load generator of gateway.bench.ts, run as its own Node process so that autocannon does not
// share the event loop (or the CPU time of one thread) with the server it measures, as wrk would not.
// Input: one JSON argument { url, connections, duration, requests, postDelete? }.
// Output: one JSON line { rps, p99, errors } on stdout.
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2] ?? '{}');

/**
 * POST+DELETE pairs: each connection POSTs a new artist to `postDelete` (the library's URI), then
 * DELETEs it. The name travels from one request to the next in autocannon's per-connection context.
 */
function postDeleteRequests(library) {
  let n = 0;
  return [
    {
      method: 'POST',
      path: library,
      headers: { 'content-type': 'application/yang-data+json' },
      setupRequest: (req, context) => {
        const name = `bench-${process.pid}-${n++}`;
        context.name = name;
        return { ...req, body: JSON.stringify({ 'example-jukebox:artist': [{ name }] }) };
      },
    },
    {
      method: 'DELETE',
      path: library,
      setupRequest: (req, context) => ({ ...req, path: `${library}/artist=${context.name}` }),
    },
  ];
}

const requests = spec.postDelete ? postDeleteRequests(spec.postDelete) : spec.requests;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  duration: spec.duration,
  requests,
});
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  })}\n`,
);
