import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

// npm install over the network registry's cache: minutes, not seconds, on a cold 2-core CI machine.
export default defineConfig({ test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 } });
