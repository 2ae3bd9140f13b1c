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

/** An attribute value of a span. */
export type RcpSpanAttributes = Record<string, string | number | boolean>;

/**
 * The part of an OpenTelemetry `Span` (`@opentelemetry/api`) the client uses.
 *
 * @example
 * ```ts
 * const span: RcpSpan = tracer.startSpan('rcp get_note');
 * span.end();
 * ```
 */
export interface RcpSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: RcpSpanAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

/**
 * The part of an OpenTelemetry `Tracer` the client uses: pass `trace.getTracer('my-app')` from
 * `@opentelemetry/api` (an optional peer, `^1.3.0`; the client never imports it itself).
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 *
 * const client = createRcpClient({ tracer: trace.getTracer('notes-agent') });
 * ```
 */
export interface RcpTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: RcpSpanAttributes }): RcpSpan;
}

/** The hooks (and span) for one call, bound to its tool (internal: what the sender and `execute` fire). */
export interface CallObserver {
  emit<K extends keyof RcpHooks>(hook: K, extra: Omit<Parameters<NonNullable<RcpHooks[K]>>[0], keyof RcpHookEvent>): void;
  /** The call is over: the span (if any) gets its status and ends. */
  end(code?: RcpErrorCode | 'UNKNOWN_ERROR'): void;
}

/** OpenTelemetry's `SpanKind.CLIENT`, `SpanStatusCode.OK` and `SpanStatusCode.ERROR`. */
const SPAN_KIND_CLIENT = 2;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

function ignoringErrors(run: () => void): void {
  try {
    run();
  } catch {
    // Observability never changes the call.
  }
}

/**
 * An observer for one call of `tool`, or undefined when the client has neither hooks nor a
 * tracer. With a tracer, one span per call (kind CLIENT, named `rcp <tool>`): the tool, the
 * method, the URL template and the server's origin as attributes, each retry and redirect as an
 * event, the final status code, and the error code as `error.type` — never a rendered URL, a
 * credential, a resolver value or an argument.
 */
export function observeCall(
  hooks: RcpHooks | undefined,
  tracer: RcpTracer | undefined,
  tool: { name: string; method: string; url: string; origin: string },
  started: number,
): CallObserver | undefined {
  if (hooks === undefined && tracer === undefined) return undefined;
  let span: RcpSpan | undefined;
  if (tracer !== undefined) {
    ignoringErrors(() => {
      span = tracer.startSpan(`rcp ${tool.name}`, {
        kind: SPAN_KIND_CLIENT,
        attributes: {
          'rcp.tool.name': tool.name,
          'http.request.method': tool.method,
          'url.template': tool.url,
          'server.origin': tool.origin,
        },
      });
    });
  }
  return {
    emit(hook, extra) {
      if (span !== undefined) {
        const fields = extra as Record<string, unknown>;
        ignoringErrors(() => {
          if (hook === 'onResponse') span!.setAttribute('http.response.status_code', fields['status'] as number);
          else if (hook === 'onRequest') span!.setAttribute('rcp.attempts', fields['attempt'] as number);
          else if (hook === 'onRetry' || hook === 'onRedirect') {
            const attributes: RcpSpanAttributes = {};
            for (const [key, value] of Object.entries(fields)) if (typeof value === 'number') attributes[key] = value;
            span!.addEvent(hook === 'onRetry' ? 'rcp.retry' : 'rcp.redirect', attributes);
          }
        });
      }
      const handler = hooks?.[hook] as ((event: object) => void) | undefined;
      if (handler === undefined) return;
      const event = Object.freeze({ tool: tool.name, method: tool.method, urlTemplate: tool.url, elapsedMs: performance.now() - started, ...extra });
      ignoringErrors(() => handler.call(hooks, event));
    },
    end(code) {
      if (span === undefined) return;
      ignoringErrors(() => {
        if (code === undefined) span!.setStatus({ code: STATUS_OK });
        else {
          span!.setAttribute('error.type', code);
          span!.setStatus({ code: STATUS_ERROR, message: code });
        }
        span!.end();
      });
    },
  };
}
