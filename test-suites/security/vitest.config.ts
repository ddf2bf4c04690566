import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// One file at a time: the fault tests spawn gateways and every file rewrites its block of figures.
export default mergeConfig(sharedConfig, { test: { fileParallelism: false, testTimeout: 120_000 } });
