import type { RcpErrorCode } from './codes';

/**
 * One problem with a JSON Pointer into what was checked: a manifest (`/tools/0/url`) or a
 * tool call's arguments (`/query`). Never contains a credential or a resolver value.
 *
 * @example
 * ```ts
 * const issue: RcpIssue = { path: '/tools/0/params/1/type', message: 'must be one of string, number, integer, boolean, array, object' };
 * ```
 */
export interface RcpIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * The challenge a tool's server sent with a 401 or 403 (`WWW-Authenticate`): the Bearer one when
 * there is one, otherwise the first. Every field is the server's own text (bounded, control
 * characters blanked, the call's credentials redacted): use it to decide (step up the scope, ask
 * the user to connect an account), never show it to a model.
 *
 * @example
 * ```ts
 * if (isRcpError(error, 'RCP_HTTP_ERROR') && error.challenge?.error === 'insufficient_scope') {
 *   askForScope(error.challenge.scope); // 'notes:write'
 * }
 * ```
 */
export interface RcpAuthChallenge {
  /** The auth-scheme as sent (`Bearer`, `DPoP`, `Basic` ...). */
  readonly scheme: string;
  /** RFC 6750 `error`: `invalid_token`, `insufficient_scope`, `invalid_request`. */
  readonly error?: string;
  /** RFC 6750 `error_description`. */
  readonly errorDescription?: string;
  /** RFC 6750 `scope`: the scope the resource needs (space-separated). */
  readonly scope?: string;
  /** RFC 9728 `resource_metadata`: the URL of the resource's protected-resource metadata. */
  readonly resourceMetadata?: string;
  /** The protection space. */
  readonly realm?: string;
}

/**
 * The data fields each error code carries besides `code`, `message` and `cause`: the map
 * behind {@link RcpErrorOf} and the narrowing of `isRcpError(error, code)`. Each class that
 * throws a code (`RcpHttpError`, `RcpManifestError`, ...) has at least these fields, and the
 * packages' type tests keep the two in step. Codes not listed carry no extra fields.
 *
 * @example
 * ```ts
 * type HttpFields = RcpErrorFields['RCP_HTTP_ERROR']; // { status; bodyExcerpt; url }
 * ```
 */
export interface RcpErrorFields {
  RCP_TEMPLATE_SYNTAX: { readonly offset?: number; readonly template?: string };
  RCP_TEMPLATE_VALUE: { readonly token?: string; readonly position?: 'path' | 'query' | 'header' | 'body' };
  RCP_TEMPLATE_MISSING: { readonly token?: string; readonly position?: 'path' | 'query' | 'header' | 'body' };
  RCP_UNSUPPORTED_VERSION: { readonly received: unknown; readonly supported: readonly string[] };
  RCP_INVALID_MANIFEST: { readonly issues: readonly RcpIssue[] };
  RCP_MANIFEST_LIMIT: { readonly limit: 'bytes' | 'tools' | 'depth'; readonly max: number; readonly actual?: number };
  RCP_RESOLVER_MISMATCH: { readonly tool: string; readonly param: string; readonly resolver: string; readonly path: string };
  RCP_UNBOUND_PARAM: { readonly tool: string; readonly param: string; readonly path: string };
  RCP_INVALID_ARGUMENTS: { readonly tool: string; readonly issues: readonly RcpIssue[] };
  RCP_UNRESOLVED: { readonly tool: string; readonly param: string };
  RCP_RESOLVER_FAILED: { readonly tool: string; readonly param: string };
  RCP_HTTP_ERROR: {
    readonly status: number;
    readonly bodyExcerpt: string;
    readonly url: string;
    /** A 401's or 403's parsed `WWW-Authenticate` challenge, when the server sent one. */
    readonly challenge: RcpAuthChallenge | undefined;
    /** Seconds a 429's or 503's `Retry-After` asked to wait, when the server sent one (SPEC §18.3). */
    readonly retryAfterSeconds: number | undefined;
  };
  RCP_UNKNOWN_TOOL: { readonly tool: string; readonly available: readonly string[] };
  /** The call needs a person's approval first; the client's error also carries the request to show. */
  RCP_APPROVAL_REQUIRED: { readonly tool: string; readonly reason: string | undefined };
  /** The operator's policy (or a person) refused the call; `reason` is for the model too. */
  RCP_APPROVAL_DENIED: { readonly tool: string; readonly reason: string | undefined };
  /** An approval given for another request (other arguments, resolver values, target) or already used. */
  RCP_APPROVAL_MISMATCH: { readonly tool: string };
}

/**
 * The fields an error of `Code` carries (`{}` for codes without data fields).
 *
 * @example
 * ```ts
 * type Fields = RcpErrorFieldsOf<'RCP_UNRESOLVED'>; // { tool: string; param: string }
 * ```
 */
// biome-ignore lint/complexity/noBannedTypes: a code without fields adds none to the error (an empty intersection member)
export type RcpErrorFieldsOf<Code extends RcpErrorCode> = Code extends keyof RcpErrorFields ? RcpErrorFields[Code] : {};
