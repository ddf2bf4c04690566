// Preloaded into a gateway process by body-memory.mjs (node --expose-gc --import): collects the
// garbage every 10 ms and keeps the largest live size seen (V8 heap in use plus memory outside the
// heap, such as Buffers); on SIGUSR2 it writes `live-peak-mb N` to stderr and starts again from now.
const live = () => {
  globalThis.gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};
let peak = 0;
setInterval(() => {
  peak = Math.max(peak, live());
}, 10).unref();
process.on('SIGUSR2', () => {
  process.stderr.write(`live-peak-mb ${Math.round(peak / 2 ** 20)}\n`);
  peak = live();
});
