import { problemResponse } from './problem';
import type { VerifyHook } from './create-rcp-server';

const encoder = new TextEncoder();

/**
 * Compares two secrets in time that depends on their lengths only, never on where they first
 * differ (a token guessed a character at a time cannot be timed).
 *
 * @example
 * ```ts
 * import { tokensEqual } from 'rcp-server';
 *
 * tokensEqual('demo-token', 'demo-token'); // true
 * tokensEqual('demo-token', 'demo-tokeN'); // false
 * ```
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let difference = a.length ^ b.length;
  for (let index = 0; index < b.length; index++) difference |= (a[index % Math.max(a.length, 1)] ?? 0) ^ b[index]!;
  return difference === 0;
}

/**
 * The bearer token of a request (`Authorization: Bearer <token>`, the scheme case-insensitive),
 * or `undefined`.
 *
 * @example
 * ```ts
 * import { bearerToken } from 'rcp-server';
 *
 * bearerToken(new Request('http://127.0.0.1/', { headers: { authorization: 'Bearer abc' } })); // 'abc'
 * ```
 */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header === null ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match === null ? undefined : match[1];
}

/**
 * A `verify` hook for bearer tokens: either a list of `{ token, principal }` (each compared
 * with {@link tokensEqual}, every entry every time) or a function from the token to its
 * principal (your own store). No token, or an unknown one, is a `401` problem with
 * `WWW-Authenticate: Bearer`.
 *
 * @example
 * ```ts
 * import { bearerAuth, createRcpServer } from 'rcp-server';
 *
 * const server = createRcpServer({
 *   auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
 *   verify: bearerAuth([{ token: process.env.API_TOKEN!, principal: { userId: 'u-1' } }]),
 *   tools: [],
 * });
 * ```
 */
export function bearerAuth<Principal>(
  tokens: readonly { readonly token: string; readonly principal: Principal }[] | ((token: string) => Principal | undefined | Promise<Principal | undefined>),
): BearerAuthHook<Principal> {
  const unauthorized = (detail: string) => problemResponse(401, 'RCP_MISSING_CREDENTIALS', detail, { headers: { 'www-authenticate': 'Bearer' } });
  const verify: VerifyHook<Principal> = async (request) => {
    const token = bearerToken(request);
    if (token === undefined) return unauthorized('A bearer token is required');
    let principal: Principal | undefined;
    if (typeof tokens === 'function') {
      principal = await tokens(token);
    } else {
      for (const entry of tokens) if (tokensEqual(token, entry.token) && principal === undefined) principal = entry.principal;
    }
    return principal === undefined ? unauthorized('The bearer token is not valid') : principal;
  };
  return Object.assign(verify, { scheme: 'Bearer' as const });
}

/**
 * What {@link bearerAuth} returns: a `verify` hook that names its scheme. (Not a bare function
 * type on purpose: TypeScript then reads the principal from `bearerAuth(…)` written inline in
 * `createRcpServer({ verify, tools })` before it types the tools, so `bound` and the handlers get it.)
 *
 * @example
 * ```ts
 * const verify: BearerAuthHook<{ userId: string }> = bearerAuth([{ token: 'dev-token', principal: { userId: 'u-1' } }]);
 * verify.scheme; // 'Bearer'
 * ```
 */
export type BearerAuthHook<Principal> = VerifyHook<Principal> & { readonly scheme: 'Bearer' };
