import { fileURLToPath } from 'node:url';
import { defineConfig } from 'tsup';

const interop = fileURLToPath(new URL('./build/ssh2-interop.mjs', import.meta.url));

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm'],
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // @yangkit/netconf-server is bundled from its sources so that its named imports of the
  // CommonJS ssh2 go through build/ssh2-interop.mjs (Node cannot link them by name).
  noExternal: ['@yangkit/netconf-server'],
  esbuildOptions(options) {
    options.conditions = ['source', 'import', 'node', 'default'];
    options.alias = { ssh2: interop };
  },
});
