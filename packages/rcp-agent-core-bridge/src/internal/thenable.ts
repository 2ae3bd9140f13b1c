/** True for a Promise or any other thenable (an object or function with a `then` method). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Attaches a no-op rejection handler so a refused thenable never becomes an unhandled rejection. */
export function silence(value: PromiseLike<unknown>): void {
  try {
    value.then(undefined, () => undefined);
  } catch {
    // A hostile thenable may throw from `then`; it is being refused anyway.
  }
}
