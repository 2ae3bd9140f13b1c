/**
 * Resolves when a command that runs until stopped (`rcp inspect`, `rcp mcp --http`) should stop:
 * when the run's signal aborts; without one, on the process's SIGINT or SIGTERM (its listeners
 * removed then). An already aborted signal resolves at once.
 *
 * @example
 * ```ts
 * await stopped(io.signal);
 * await server.close();
 * ```
 */
export function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined) {
    return signal.aborted ? Promise.resolve() : new Promise((done) => signal.addEventListener('abort', () => done(), { once: true }));
  }
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
