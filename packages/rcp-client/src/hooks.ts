import type { RcpErrorCode } from 'rcp-errors';

/**
 * What every hook event says about the call: the tool, its method and its URL **template**
 * (never the rendered URL: a resolver's value may be in its path), and the milliseconds since
 * the call started. No event ever carries a credential, a resolver value or an argument.
 *
 * @example
 * ```ts
 * const event: RcpHookEvent = { tool: 'get_note', method: 'GET', urlTemplate: 'https://notes.example.com/users/{{userId}}/notes/{{noteId}}', elapsedMs: 12.5 };
 * ```
 */
export interface RcpHookEvent {
  readonly tool: string;
  readonly method: string;
  readonly urlTemplate: string;
  readonly elapsedMs: number;
}

/**
 * Observability hooks of a client (logs, metrics, traces). Each is called synchronously with a
 * frozen event; a hook that throws is ignored — it never changes the call.
 *
 * @example
 * ```ts
 * createRcpClient({
 *   hooks: {
 *     onResponse: (event) => metrics.histogram('rcp.call', event.elapsedMs, { tool: event.tool, status: event.status }),
 *     onError: (event) => logger.warn(`${event.tool}: ${event.code}`),
 *   },
 * });
 * ```
 */
export interface RcpHooks {
  /** Each attempt, just before it is sent (`attempt` 1 for the first, then each retry and redirect hop). */
  onRequest?(event: RcpHookEvent & { readonly attempt: number }): void;
  /** Each response received (headers), before its body is read. */
  onResponse?(event: RcpHookEvent & { readonly attempt: number; readonly status: number }): void;
  /** A retry about to wait `delayMs`: after a status, or a network error (`status` absent). */
  onRetry?(event: RcpHookEvent & { readonly attempt: number; readonly delayMs: number; readonly status?: number }): void;
  /** A same-origin redirect about to be followed. */
  onRedirect?(event: RcpHookEvent & { readonly status: number; readonly hop: number }): void;
  /** The call failed (any step, before or after sending), with the error's stable code. */
  onError?(event: RcpHookEvent & { readonly code: RcpErrorCode | 'UNKNOWN_ERROR' }): void;
}

/** The hooks for one call, bound to its tool (internal: what the sender and `execute` fire). */
export interface CallObserver {
  emit<K extends keyof RcpHooks>(hook: K, extra: Omit<Parameters<NonNullable<RcpHooks[K]>>[0], keyof RcpHookEvent>): void;
}

/** An observer for one call of `tool`, or undefined when the client has no hooks. */
export function observeCall(
  hooks: RcpHooks | undefined,
  tool: { name: string; method: string; url: string },
  started: number,
): CallObserver | undefined {
  if (hooks === undefined) return undefined;
  return {
    emit(hook, extra) {
      const handler = hooks[hook] as ((event: object) => void) | undefined;
      if (handler === undefined) return;
      const event = Object.freeze({ tool: tool.name, method: tool.method, urlTemplate: tool.url, elapsedMs: performance.now() - started, ...extra });
      try {
        handler.call(hooks, event);
      } catch {
        // A hook never changes the call.
      }
    },
  };
}
