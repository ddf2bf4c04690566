import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/bin.ts'],
  format: ['esm', 'cjs'],
  // Members marked @internal (CompactChildMap's, used across the codec's files) stay out of the types.
  dts: { compilerOptions: { stripInternal: true } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  // import.meta.url (json-validator's lazy require of ajv) also works in the CommonJS build.
  shims: true,
});
