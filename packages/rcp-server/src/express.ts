import type { RequestHandler } from 'express';
import type { RcpServer } from './create-rcp-server';
import { isForbiddenMethod, toWebRequest, writeWebResponse } from './node';

/**
 * Express 5 middleware serving an RCP server: the manifest and every tool; anything else goes
 * to `next()`. Mount it before any body parser (`express.json()`): it reads the body itself, with
 * the server's rules. A method fetch forbids (`TRACE` …) is never an RCP call: it goes to
 * `next()` as well, so the app's own routes and answers apply.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { rcpExpress } from 'rcp-server/express';
 *
 * const app = express();
 * app.use(rcpExpress(server));
 * app.listen(8080, '127.0.0.1');
 * ```
 */
export function rcpExpress(server: RcpServer): RequestHandler {
  return (request, response, next) => {
    if (isForbiddenMethod(request.method)) return next();
    server
      // The original URL: a tool's path is the manifest's, wherever the middleware is mounted.
      .handle(toWebRequest(request, request.originalUrl))
      .then((answer) => (answer === undefined ? next() : writeWebResponse(answer, response)))
      .catch(next);
  };
}
