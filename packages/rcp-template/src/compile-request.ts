import { compileBody, renderBody, type BodyNode } from './internal/compile-body';
import { compileHeaders, renderHeaders, type HeaderEntry } from './internal/compile-headers';
import type { QueryStyle } from './internal/compile-query';
import { compileUrl, renderUrl, type CompiledUrl } from './internal/compile-url';
import { structureError } from './internal/parse-in';
import { isHttpToken } from 'rcp-internal';

/**
 * The request template of a tool: `{{token}}` placeholders in the URL path and query, the
 * `queryParams` and `headers` values, and the string values of `body`.
 *
 * @example
 * ```ts
 * const template: RequestTemplate = {
 *   method: 'GET',
 *   url: 'https://api.example.com/users/{{userId}}',
 *   queryParams: { q: '{{query}}' },
 *   headers: { 'X-Tenant': '{{tenant}}' },
 * };
 * ```
 */
export interface RequestTemplate {
  /** HTTP method, passed through as given (an RFC 9110 token, e.g. `GET`). */
  method: string;
  /**
   * Absolute `http(s)://host/path?query` or relative `/path?query`. Tokens may appear only in the
   * path and in query values; never in the scheme, userinfo, host or port. No `#fragment`.
   */
  url: string;
  /** Query entries appended after any query in `url`, in order. Keys are literal; values are templates. */
  queryParams?: Record<string, string>;
  /** Header values are templates; names are literal. */
  headers?: Record<string, string>;
  /** JSON body; string values are templates, keys are literal. Omit for no body. */
  body?: unknown;
}

/**
 * Options of {@link compileRequest}.
 *
 * @example
 * ```ts
 * compileRequest({ method: 'GET', url: '/items/{{id}}' }, { baseUrl: 'https://api.example.com/rcp.json' });
 * ```
 */
export interface CompileRequestOptions {
  /**
   * Base URL for a relative `url` (a client passes the manifest URL). Only its origin is used.
   * Ignored when `url` is absolute.
   * @default undefined (a relative `url` then renders as a relative URL)
   */
  baseUrl?: string;
  /**
   * How a token that is the whole value of a query entry writes an array or an object (RCP 0.4, a param's
   * `queryStyle`): `repeat` (`k=a&k=b`, the default), `comma` (`k=a,b`), `deepObject` (`k[a]=1&k[b][c]=2`).
   * A styled token used in the query only inside a longer value is `RCP_TEMPLATE_SYNTAX`.
   * @default every token `repeat`
   */
  queryStyles?: Readonly<Record<string, QueryStyle>>;
}

/**
 * A request rendered by {@link CompiledRequest.render}. A fresh object on every call.
 *
 * @example
 * ```ts
 * const rendered: RenderedRequest = compiled.render({ userId: 'a/b' });
 * rendered.url; // 'https://api.example.com/users/a%2Fb'
 * ```
 */
export interface RenderedRequest {
  /** The template's method. */
  method: string;
  /** The URL: absolute when the origin is known (absolute `url` or `baseUrl`), else relative. */
  url: string;
  /** Rendered headers (entries with a missing token are left out). */
  headers: Record<string, string>;
  /** The rendered JSON body, present when the template has a body. Serialise it with `JSON.stringify`. */
  body?: unknown;
}

/**
 * A request template compiled by {@link compileRequest}: all parsing done, ready to render.
 *
 * @example
 * ```ts
 * const compiled: CompiledRequest = compileRequest({ method: 'GET', url: 'https://api.example.com/u/{{id}}' });
 * compiled.tokens;      // ['id']
 * compiled.pathTokens;  // ['id']
 * compiled.origin;      // 'https://api.example.com'
 * ```
 */
export interface CompiledRequest {
  /** Every token used anywhere (url, queryParams, headers, body), unique, in that order of first use. */
  readonly tokens: readonly string[];
  /** Tokens used in the URL path (always required). */
  readonly pathTokens: readonly string[];
  /** The origin requests go to (`https://host[:port]`), or `undefined` for a relative `url` without `baseUrl`. */
  readonly origin: string | undefined;
  /**
   * Renders a request from `values` (own properties only; `undefined` and `null` mean missing).
   * Does no parsing.
   *
   * @throws {@link RcpTemplateError} `RCP_TEMPLATE_MISSING` (path token or whole body missing) or
   *   `RCP_TEMPLATE_VALUE` (a value that cannot go where its token is).
   */
  render(values: Readonly<Record<string, unknown>>): RenderedRequest;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * Compiles a request template once; `render(values)` then builds requests without parsing.
 *
 * Encoding per position:
 * - **path**: the value (string, finite number or boolean) is percent-encoded as ONE segment
 *   (only `A-Z a-z 0-9 - . _ ~` stay); a segment that would be `.`, `..` or empty is refused; a
 *   missing path token throws `RCP_TEMPLATE_MISSING`.
 * - **query** (query values in `url` and `queryParams`): encoded the same way; an array value of a
 *   value that is exactly one token repeats the key (empty array: entry left out); an entry
 *   with a missing token is left out.
 * - **header**: text without control characters and only Latin-1; an entry with a missing token is
 *   left out.
 * - **body**: `"{{x}}"` becomes the typed value; longer strings interpolate scalars as text; a
 *   missing value removes the property or element.
 *
 * Every call parses the template afresh and returns a new object; nothing is kept between
 * calls (no module-level cache), so compile once per tool and keep the result, as a client
 * does at discovery.
 *
 * @param template - The request template.
 * @param options - See {@link CompileRequestOptions}.
 * @throws {@link RcpTemplateError} `RCP_TEMPLATE_SYNTAX` for a malformed template (with `offset` and `template`).
 * @throws RcpError `RCP_INVALID_OPTIONS` when `options.baseUrl` is not an http(s) URL.
 *
 * @example
 * ```ts
 * import { compileRequest } from 'rcp-template';
 *
 * const search = compileRequest({
 *   method: 'POST',
 *   url: 'https://api.example.com/users/{{userId}}/search',
 *   queryParams: { tag: '{{tags}}', q: '{{query}}' },
 *   headers: { 'X-Tenant': '{{tenant}}' },
 *   body: { limit: '{{limit}}', note: 'for {{userId}}' },
 * });
 * search.render({ userId: 'a/b', tags: ['x', 'y z'], limit: 10, tenant: 'acme' });
 * // {
 * //   method: 'POST',
 * //   url: 'https://api.example.com/users/a%2Fb/search?tag=x&tag=y%20z',
 * //   headers: { 'X-Tenant': 'acme' },
 * //   body: { limit: 10, note: 'for a/b' },
 * // }
 * ```
 */
export function compileRequest(template: RequestTemplate, options: CompileRequestOptions = {}): CompiledRequest {
  return finish(compileParts(template, options.baseUrl, options.queryStyles));
}

/** Everything {@link compileRequest} computes from a template: all parsing done. */
interface RequestParts {
  readonly method: string;
  readonly url: CompiledUrl;
  readonly headers: HeaderEntry[];
  readonly body: BodyNode | undefined;
  readonly tokens: readonly string[];
  readonly pathTokens: readonly string[];
}

function compileParts(template: RequestTemplate, baseUrl: string | undefined, queryStyles: Readonly<Record<string, QueryStyle>> | undefined): RequestParts {
  if (typeof template !== 'object' || template === null) {
    throw structureError('template', '', 0, 'the request template must be an object');
  }
  const method: unknown = template.method;
  if (typeof method !== 'string' || !isHttpToken(method)) {
    throw structureError('method', String(method), 0, 'the method must be an HTTP method token such as GET');
  }
  const tokens: string[] = [];
  if (queryStyles !== undefined && (typeof queryStyles !== 'object' || queryStyles === null)) {
    throw structureError('queryStyles', '', 0, 'queryStyles must be an object of token name → style');
  }
  const url = compileUrl(template.url, template.queryParams, baseUrl, tokens, queryStyles);
  const headers = compileHeaders(template.headers, tokens);
  const hasBody = Object.hasOwn(template, 'body') && template.body !== undefined;
  const body = hasBody ? compileBody(template.body, tokens) : undefined;
  return { method, url, headers, body, tokens: Object.freeze(tokens), pathTokens: url.pathTokens };
}

function finish(parts: RequestParts): CompiledRequest {
  const { method, url, headers, body } = parts;

  function render(values: Readonly<Record<string, unknown>>): RenderedRequest {
    const source = values === null || values === undefined ? EMPTY : values;
    const renderedUrl = renderUrl(url, source);
    const renderedHeaders = renderHeaders(headers, source);
    if (body === undefined) return { method, url: renderedUrl, headers: renderedHeaders };
    return { method, url: renderedUrl, headers: renderedHeaders, body: renderBody(body, source) };
  }

  return Object.freeze({ tokens: parts.tokens, pathTokens: parts.pathTokens, origin: url.origin, render });
}
