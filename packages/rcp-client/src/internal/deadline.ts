/**
 * One deadline for a whole call: every attempt, redirect, retry wait, headers and body. Its
 * signal ends the transport's attempt when the time is up or the caller aborts.
 */
export interface Deadline {
  /** Aborted when the time is up (reason: a `TimeoutError`) or the caller's signal aborts (its reason). */
  readonly signal: AbortSignal;
  /** The deadline in milliseconds from the start. */
  readonly timeout: number;
  /** Whether it was the time that ran out (not the caller). */
  timedOut(): boolean;
  /** Whether waiting `ms` more still ends before the deadline. */
  fits(ms: number): boolean;
  /** Stops the timer and lets go of the caller's signal; call once the call is over. */
  end(): void;
}

/**
 * Starts a deadline of `timeout` ms, linked to the caller's `signal`.
 *
 * @example
 * ```ts
 * const deadline = startDeadline(5_000, callerSignal);
 * try {
 *   await transport({ ...request, signal: deadline.signal });
 * } finally {
 *   deadline.end();
 * }
 * ```
 */
export function startDeadline(timeout: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const started = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`The request timed out after ${timeout} ms`, 'TimeoutError'));
  }, timeout);
  const onCallerAbort = (): void => controller.abort(callerSignal!.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timeout,
    timedOut: () => timedOut,
    fits: (ms) => performance.now() + ms < started + timeout,
    end() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * Waits `ms`, or rejects with the signal's reason as soon as it aborts.
 *
 * @example
 * ```ts
 * await sleep(250, deadline.signal);
 * ```
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
