/**
 * Failures the CLI reports as ONE line on stderr (no stack trace). Kept apart from the modules
 * that import the SDK, so the CLI can recognise them without loading it.
 */

/** A bad command line: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A check the demo makes about itself failed (a catalog leaks a hidden param...): exit code 1. */
export class DemoCheckError extends Error {
  override readonly name = 'DemoCheckError';
}

/** The SDK could not be loaded (not built yet): exit code 1. */
export class SetupError extends Error {
  override readonly name = 'SetupError';
}
