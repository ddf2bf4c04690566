import { defineConfig } from 'tsup';

export default defineConfig({
  // `cli` is the `yangkit` bin (Node only); `node` holds the Node-only TLS fetch.
  entry: ['src/index.ts', 'src/node.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
