/** A command-line problem: printed as one line, exiting with `exitCode` (2 for usage, 1 otherwise). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
  }
}
