import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared';

// Each import runs the OpenAPI validator (@readme/openapi-parser) on a whole document; on a loaded
// 2-core CI machine the first one of a file (its cold import included) has taken over 5 s. These
// are not timing tests: the limit only stops a hang.
export default defineConfig({ test: { ...sharedTestOptions, include: ['src/**/*.test.ts'], testTimeout: 60_000 } });
