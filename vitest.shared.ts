/**
 * What every package's vitest config shares.
 *
 * `isolate: false`: the test files of a package run in one worker that imports each module once,
 * instead of a fresh module graph per file. On CI's two cores that saves about a third of the
 * test CPU (most of a test file's cost is importing the SDKs it drives). It is safe because the
 * house rule holds: no module-level state in our code, and a test that fakes timers restores them.
 */
export const sharedTestOptions = { isolate: false } as const;
