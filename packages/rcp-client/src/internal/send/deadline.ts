/**
 * What ends a transport's attempt: the call's deadline or the caller's signal. It is both a
 * minimal event emitter (`aborted`, `reason`, `on` / `once` / `removeListener` — what undici's
 * `request()` accepts as its `signal`, at a fraction of an `AbortSignal`'s cost per call) and,
 * on first read of `signal`, a real `AbortSignal` (what `fetch` needs).
 */
export interface AbortState {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** A real `AbortSignal` that follows this state, created on first read. */
  readonly signal: AbortSignal;
  on(event: 'abort', listener: () => void): void;
  once(event: 'abort', listener: () => void): void;
  removeListener(event: 'abort', listener: () => void): void;
}

/**
 * One deadline for a whole call: every attempt, redirect, retry wait, headers and body.
 */
export interface Deadline extends AbortState {
  /** The deadline in milliseconds from the start. */
  readonly timeout: number;
  /** Whether it was the time that ran out (not the caller). */
  timedOut(): boolean;
  /** Whether waiting `ms` more still ends before the deadline. */
  fits(ms: number): boolean;
  /** Stops the timer and lets go of the caller's signal; call once the call is over. */
  end(): void;
}

class CallDeadline implements Deadline {
  aborted = false;
  reason: unknown = undefined;
  readonly timeout: number;
  #timedOut = false;
  #listeners: (() => void)[] = [];
  #controller: AbortController | undefined;
  readonly #started = performance.now();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #callerSignal: AbortSignal | undefined;
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(timeout: number, callerSignal: AbortSignal | undefined) {
    this.timeout = timeout;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#abort(new DOMException(`The request timed out after ${timeout} ms`, 'TimeoutError'));
    }, timeout);
    this.#callerSignal = callerSignal;
    if (callerSignal !== undefined) {
      this.#onCallerAbort = () => this.#abort(callerSignal.reason);
      callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  on(_event: 'abort', listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** The same as `on`: the state aborts at most once. */
  once(event: 'abort', listener: () => void): void {
    this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index !== -1) this.#listeners.splice(index, 1);
  }

  timedOut(): boolean {
    return this.#timedOut;
  }

  fits(ms: number): boolean {
    return performance.now() + ms < this.#started + this.timeout;
  }

  end(): void {
    clearTimeout(this.#timer);
    if (this.#onCallerAbort !== undefined) this.#callerSignal!.removeEventListener('abort', this.#onCallerAbort);
  }

  #abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
    this.#controller?.abort(reason);
  }
}

/**
 * Starts a deadline of `timeout` ms, linked to the caller's `signal`.
 *
 * @example
 * ```ts
 * const deadline = startDeadline(5_000, callerSignal);
 * try {
 *   await transport({ ...request, abort: deadline });
 * } finally {
 *   deadline.end();
 * }
 * ```
 */
export function startDeadline(timeout: number, callerSignal: AbortSignal | undefined): Deadline {
  return new CallDeadline(timeout, callerSignal);
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
