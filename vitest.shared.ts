import { defineConfig } from 'vitest/config';

/**
 * Shared vitest settings: workspace packages resolve to their TypeScript sources through the
 * `source` export condition, so tests never wait for a dependency's build.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] },
  ssr: { resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] } },
  test: {
    include: ['test/**/*.test.ts'],
    passWithNoTests: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    benchmark: { include: ['bench/**/*.bench.ts'] },
    coverage: { provider: 'v8', include: ['src/**'], reporter: ['text-summary', 'html'] },
  },
});
