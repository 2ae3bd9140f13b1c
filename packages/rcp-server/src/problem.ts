/**
 * One problem of an RFC 9457 problem-details body: a JSON Pointer into the call's arguments
 * (`/learnerId`, `/tags/1`, `''` for the arguments themselves) and what is wrong, never the value.
 *
 * @example
 * ```ts
 * const issue: ProblemIssue = { pointer: '/query', detail: 'is required' };
 * ```
 */
export interface ProblemIssue {
  readonly pointer: string;
  readonly detail: string;
}

/**
 * The RFC 9457 body `rcp-server` answers with (`application/problem+json`): `type` is
 * `about:blank`, `title` the status phrase, `code` the RCP error code, `errors` each problem.
 *
 * @example
 * ```ts
 * const body: ProblemDetails = {
 *   type: 'about:blank', title: 'Bad Request', status: 400, code: 'RCP_INVALID_ARGUMENTS',
 *   detail: 'Invalid arguments for tool "search_courses": /query is required',
 *   errors: [{ pointer: '/query', detail: 'is required' }],
 * };
 * ```
 */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors?: readonly ProblemIssue[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
};

/**
 * An RFC 9457 problem-details response (`application/problem+json`, `Cache-Control: no-store`).
 *
 * @example
 * ```ts
 * import { problemResponse } from 'rcp-server';
 *
 * problemResponse(401, 'RCP_MISSING_CREDENTIALS', 'A bearer token is required', {
 *   headers: { 'WWW-Authenticate': 'Bearer' },
 * });
 * ```
 */
export function problemResponse(
  status: number,
  code: string,
  detail: string,
  options: { errors?: readonly ProblemIssue[]; headers?: Record<string, string> } = {},
): Response {
  const body: ProblemDetails = {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    code,
    detail,
    ...(options.errors !== undefined && { errors: options.errors }),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...options.headers },
  });
}
