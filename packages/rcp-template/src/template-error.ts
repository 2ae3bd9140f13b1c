import { RcpError, brandRcpErrorClass } from 'rcp-errors';

/**
 * Where in a request a token value is placed. Each position has its own encoding rules.
 *
 * @example
 * ```ts
 * import { RcpTemplateError, type TemplatePosition } from 'rcp-template';
 * const where: TemplatePosition | undefined = error instanceof RcpTemplateError ? error.position : undefined;
 * ```
 */
export type TemplatePosition = 'path' | 'query' | 'header' | 'body';

/**
 * The codes an {@link RcpTemplateError} can carry.
 *
 * @example
 * ```ts
 * const code: RcpTemplateErrorCode = 'RCP_TEMPLATE_SYNTAX';
 * ```
 */
export type RcpTemplateErrorCode = 'RCP_TEMPLATE_SYNTAX' | 'RCP_TEMPLATE_VALUE' | 'RCP_TEMPLATE_MISSING';

/**
 * Data attached to an {@link RcpTemplateError}.
 *
 * @example
 * ```ts
 * new RcpTemplateError('RCP_TEMPLATE_MISSING', 'Path token "id" has no value', { token: 'id', position: 'path' });
 * ```
 */
export interface RcpTemplateErrorOptions {
  /** Character offset (0-based, UTF-16 code units) in `template` where the syntax problem is. Syntax errors only. */
  offset?: number;
  /** The template text that failed to parse. Syntax errors only. */
  template?: string;
  /** The token whose value is missing or not allowed. Value and missing errors only. */
  token?: string;
  /** The request position of `token`. Value and missing errors only. */
  position?: TemplatePosition;
  /** The underlying error, kept on `error.cause`. */
  cause?: unknown;
}

/**
 * Error thrown by `rcp-template`.
 *
 * - `RCP_TEMPLATE_SYNTAX`: the template text is malformed (bad token, token before the path,
 *   fragment, ...). Carries `offset` and `template`.
 * - `RCP_TEMPLATE_VALUE`: a value cannot be placed where its token is (an array in a path, a
 *   control character in a header, a path segment that would become `.`/`..`/empty, ...).
 *   Carries `token` and `position`.
 * - `RCP_TEMPLATE_MISSING`: a required value is missing (a path token, or a body that is
 *   exactly one token). Carries `token` and `position`.
 *
 * Messages name the token and position, never the value. `instanceof RcpTemplateError` also
 * matches an error from a second installed copy of rcp-template (a brand, see `RcpError`).
 *
 * @example
 * ```ts
 * import { parseTemplate, RcpTemplateError } from 'rcp-template';
 * try {
 *   parseTemplate('/users/{{ id }}');
 * } catch (error) {
 *   if (error instanceof RcpTemplateError && error.code === 'RCP_TEMPLATE_SYNTAX') {
 *     console.log(error.offset); // 9 (the space after "{{")
 *   }
 * }
 * ```
 */
export class RcpTemplateError extends RcpError<RcpTemplateErrorCode> {
  static {
    brandRcpErrorClass(RcpTemplateError, 'rcp-template.RcpTemplateError');
  }

  /** Character offset of the syntax problem in `template` (syntax errors only). */
  declare readonly offset?: number;
  /** The template text that failed to parse (syntax errors only). */
  declare readonly template?: string;
  /** The token concerned (value and missing errors only). */
  declare readonly token?: string;
  /** Where the token was being placed (value and missing errors only). */
  declare readonly position?: TemplatePosition;

  constructor(code: RcpTemplateErrorCode, message: string, options: RcpTemplateErrorOptions = {}) {
    super(code, message, 'cause' in options ? { cause: options.cause } : {});
    if (options.offset !== undefined) define(this, 'offset', options.offset);
    if (options.template !== undefined) define(this, 'template', options.template);
    if (options.token !== undefined) define(this, 'token', options.token);
    if (options.position !== undefined) define(this, 'position', options.position);
  }
}

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: false, configurable: false });
}
