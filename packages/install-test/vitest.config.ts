import { defineConfig } from 'vitest/config';

// npm install over the network registry's cache: minutes, not seconds, on a cold 2-core CI machine.
export default defineConfig({ test: { include: ['src/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 } });
