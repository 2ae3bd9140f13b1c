import { RcpError } from 'rcp-errors';
import type { RequestBody, ResponseHeaders } from './transport-types';

/** Redirect hops followed at most; one more is `RCP_NETWORK_ERROR`. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that describe a request body; dropped when a redirect turns the request into a GET. */
const BODY_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

/** What one hop sends. */
export interface Hop {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: RequestBody | undefined;
}

/** What the redirect policy needs to know about the call. */
export interface RedirectContext {
  /** The origin of the call's first URL: the only one redirects may stay in. */
  readonly origin: string;
  /** Hops followed so far. */
  readonly redirects: number;
  /** Extra policy for targets (after the same-origin rule), e.g. the operator's `allowOrigin`. */
  readonly isRedirectAllowed?: ((target: URL) => boolean) | undefined;
  /**
   * The request was approved by a person (SPEC §19): what they approved is this one request, so
   * a redirect is followed only when it keeps the method, origin, path and query.
   */
  readonly approved?: boolean | undefined;
}

/**
 * The hop a redirect response leads to, or undefined when `status` is not a redirect with a
 * `Location`. Same origin only (scheme, host and port), at most {@link MAX_REDIRECTS} hops, never
 * to a URL with user info; fetch's method rule (WHATWG Fetch, "HTTP-redirect fetch"): 303 turns
 * anything but HEAD into a GET without body, 301 and 302 turn only POST into one, 307 and 308
 * keep method and body — a PUT or DELETE is never silently turned into a GET. After a person's
 * approval (`approved`), only a redirect that keeps method, origin, path and query. A refused
 * target is `RCP_ORIGIN_NOT_ALLOWED` (never followed, user info never quoted); too many hops or
 * an unparsable `Location` is `RCP_NETWORK_ERROR`.
 *
 * @example
 * ```ts
 * const next = nextHop(hop, 307, response.headers, { origin: 'https://api.example.com', redirects: 0 });
 * // { ...hop, url: 'https://api.example.com/v2/notes' } for `Location: /v2/notes`
 * ```
 */
export function nextHop(hop: Hop, status: number, headers: Pick<ResponseHeaders, 'get'>, context: RedirectContext): Hop | undefined {
  if (!REDIRECT_STATUSES.has(status)) return undefined;
  const location = headers.get('location');
  if (location === null) return undefined;
  const { origin } = context;
  let target: URL;
  try {
    target = new URL(location, hop.url);
  } catch {
    // The parser's error quotes the Location value: not kept.
    throw new RcpError('RCP_NETWORK_ERROR', `${origin} answered ${status} with an invalid Location header`);
  }
  if (target.username !== '' || target.password !== '') {
    // User info is a credential in the URL: never followed, never quoted.
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `${origin} redirected (${status}) to a URL with user info; such redirects are never followed`);
  }
  if (target.origin !== origin) {
    throw new RcpError(
      'RCP_ORIGIN_NOT_ALLOWED',
      `${origin} redirected (${status}) to another origin, ${originLabel(target)}; cross-origin redirects are never followed`,
    );
  }
  if (context.isRedirectAllowed !== undefined && !redirectAllowed(context.isRedirectAllowed, target)) {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's policy refuses the redirect (${status}) within ${origin}`);
  }
  if (context.redirects >= MAX_REDIRECTS) {
    throw new RcpError('RCP_NETWORK_ERROR', `Too many redirects from ${origin} (more than ${MAX_REDIRECTS})`);
  }
  target.hash = '';
  const method = hop.method;
  const next: Hop =
    (status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')
      ? { method: 'GET', url: target.href, headers: withoutBodyHeaders(hop.headers), body: undefined }
      : { ...hop, url: target.href };
  if (context.approved === true && (next.method !== method || next.url !== withoutFragment(hop.url))) {
    // Every hop followed so far kept the approved request, so `hop` is it.
    throw new RcpError(
      'RCP_ORIGIN_NOT_ALLOWED',
      `${origin} answered the approved request with a redirect (${status}) to another ${next.method !== method ? 'method' : 'path or query'}; ` +
        'what a person approved is one request, so a redirect after an approval is followed only when it keeps method, origin, path and query',
    );
  }
  return next;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

/** Asks the policy about a copy of the target; a policy that throws refuses (fail closed, cause kept). */
function redirectAllowed(policy: (target: URL) => boolean, target: URL): boolean {
  try {
    return policy(new URL(target.href)) === true;
  } catch (error) {
    throw new RcpError('RCP_ORIGIN_NOT_ALLOWED', `The client's policy failed on a redirect within ${target.origin}`, {
      cause: error,
    });
  }
}

function originLabel(url: URL): string {
  return url.origin === 'null' ? `a ${url.protocol} URL` : url.origin;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) {
    if (!BODY_HEADERS.has(name.toLowerCase())) out[name] = headers[name]!;
  }
  return out;
}
