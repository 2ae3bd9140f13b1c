import type { MiddlewareHandler } from 'hono';
import type { RcpServer } from './create-rcp-server';

/**
 * Hono middleware serving an RCP server on Hono's own `Request` (no bridge): the manifest and
 * every tool; anything else goes to `next()`.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { rcpHono } from 'rcp-server/hono';
 *
 * const app = new Hono();
 * app.use(rcpHono(server));
 * export default app;
 * ```
 */
export function rcpHono(server: RcpServer): MiddlewareHandler {
  return async (context, next) => {
    const answer = await server.handle(context.req.raw);
    if (answer !== undefined) return answer;
    await next();
    return undefined;
  };
}
