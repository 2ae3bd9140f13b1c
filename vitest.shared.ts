/**
 * What every package's vitest config shares.
 *
 * `isolate: false`: the test files of a package run in one worker that imports each module once,
 * instead of a fresh module graph per file. On CI's two cores that saves about a third of the
 * test CPU (most of a test file's cost is importing the SDKs it drives). It is safe because the
 * house rule holds: no module-level state in our code, and a test that fakes timers restores them.
 *
 * `testTimeout` 30 s and `hookTimeout` 60 s: the limits are sized for a loaded two-core CI, where
 * a test that starts real servers and a client can wait seconds for a core (at vitest's 5 s
 * default, a conformance case timed out on a loaded fresh clone). No test asserts a time; a
 * package that starts processes or a browser raises them in its own config.
 */
export const sharedTestOptions = { isolate: false, testTimeout: 30_000, hookTimeout: 60_000 } as const;
