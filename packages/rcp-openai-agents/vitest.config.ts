import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ['src/**/*.test.ts'],
    // The Agents SDK exports traces to api.openai.com unless told not to: nothing leaves this machine.
    env: { OPENAI_AGENTS_DISABLE_TRACING: '1' },
  },
});
