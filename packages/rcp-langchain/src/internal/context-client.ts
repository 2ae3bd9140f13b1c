/**
 * The context of a run: `context(configurable)`, or — without a `context` option, the documented
 * default — the `configurable` object itself (then `Context` is its shape).
 */
export function contextOf<Context>(
  context: ((configurable: Record<string, unknown>) => Context) | undefined,
  configurable: Record<string, unknown> | undefined,
): Context {
  return context === undefined ? ((configurable ?? {}) as Context) : context(configurable ?? {});
}
