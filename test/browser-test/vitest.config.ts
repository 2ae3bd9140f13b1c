import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

// Chromium's first start on a cold 2-core CI machine takes seconds, not milliseconds.
export default defineConfig({ test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 60_000 } });
