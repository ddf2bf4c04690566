// Where a process's resident size goes, second by second: preloaded into the processes of the
// side-by-side benchmark (`NODE_OPTIONS="-r ./bench/memory-probe.cjs"`), it appends to
// MEMORY_PROBE_DIR (default: the system's temporary directory), in the gateway and in the floor
// (`node -e`), one line a second to `memory-gateway-PID.log` or `memory-floor-PID.log`: seconds since
// the start, VmRSS, RssAnon and RssFile of /proc/self/status (Linux), and V8's heap spaces as
// committed/used MB. Other processes (vitest, wrk's parent) are left alone. Reading them keeps the
// process a little busy, which may let V8 shrink a young generation it would otherwise keep grown.
const { appendFileSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');
const { getHeapSpaceStatistics } = require('node:v8');

const gateway = process.argv.some((arg) => arg.includes('restconf-gateway'));
const floor = process.argv.length === 1 && process.execArgv.includes('-e');
if (gateway || floor) {
  const file = path.join(
    process.env.MEMORY_PROBE_DIR ?? tmpdir(),
    `memory-${gateway ? 'gateway' : 'floor'}-${process.pid}.log`,
  );
  const started = Date.now();
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  setInterval(() => {
    const status = readFileSync('/proc/self/status', 'utf8');
    const field = (name) =>
      Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
    const spaces = getHeapSpaceStatistics()
      .filter((s) => s.space_size > 0)
      .map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_size)}/${mb(s.space_used_size)}`)
      .join(', ');
    const seconds = Math.round((Date.now() - started) / 1000);
    appendFileSync(
      file,
      `${seconds} s: VmRSS ${field('VmRSS')} MB, RssAnon ${field('RssAnon')}, RssFile ${field('RssFile')} | ${spaces}\n`,
    );
  }, 1000).unref();
}
