import type { RcpErrorCode } from './codes';
import type { RcpErrorFieldsOf } from './error-fields';

/** Global-registry symbol, so the marker is the same across duplicate installs and realms. */
const RCP_ERROR_MARKER = Symbol.for('rcp-sdk.error');

/**
 * Options accepted by every {@link RcpError} constructor.
 *
 * @example
 * ```ts
 * new RcpError('RCP_TIMEOUT', 'Timed out after 30000 ms', { cause: abortError });
 * ```
 */
export interface RcpErrorOptions {
  /** The underlying error, kept on `error.cause`. */
  cause?: unknown;
}

/**
 * Base class of every error the RCP SDK throws. `code` is stable and literal-typed;
 * `cause` is chained. Messages never contain credentials or resolver values.
 *
 * Use {@link isRcpError} rather than `instanceof` to recognise one: it also works
 * when two copies of the SDK are installed side by side.
 *
 * @example
 * ```ts
 * import { RcpError } from 'rcp-errors';
 * throw new RcpError('RCP_INVALID_ARGUMENTS', 'Argument "query" is required', { cause });
 * ```
 */
export class RcpError<Code extends RcpErrorCode = RcpErrorCode> extends Error {
  /** Stable, machine-readable error code. */
  readonly code: Code;

  constructor(code: Code, message: string, options: RcpErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true, writable: true });
    Object.defineProperty(this, RCP_ERROR_MARKER, { value: true, enumerable: false });
  }

  /**
   * True when `value` is an RCP error, from this copy of the SDK or another one.
   *
   * @example
   * ```ts
   * if (RcpError.isInstance(error)) console.log(error.code);
   * ```
   */
  static isInstance(value: unknown): value is RcpError {
    return isRcpError(value);
  }

  /**
   * A plain JSON view (`name`, `code`, `message` and the subclass's own data fields).
   *
   * @example
   * ```ts
   * JSON.stringify(error); // {"name":"RcpError","code":"RCP_TIMEOUT","message":"..."}
   * ```
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    for (const key of Object.keys(this)) {
      if (key !== 'code') out[key] = (this as unknown as Record<string, unknown>)[key];
    }
    return out;
  }
}

/**
 * An RCP error of one code with that code's data fields: what `isRcpError(error, code)`
 * narrows to. For a union of codes it is the union of each code's error, so checking
 * `error.code` narrows further.
 *
 * @example
 * ```ts
 * function report(error: RcpErrorOf<'RCP_HTTP_ERROR'>) {
 *   console.log(error.status, error.bodyExcerpt);
 * }
 * ```
 */
export type RcpErrorOf<Code extends RcpErrorCode = RcpErrorCode> = Code extends RcpErrorCode ? RcpError<Code> & RcpErrorFieldsOf<Code> : never;

/**
 * Recognises an {@link RcpError} without relying on `instanceof` alone: the check uses a
 * `Symbol.for` marker, so it holds across duplicate installs of the SDK. Pass `code` to
 * also narrow on one code: the error is then typed with that code's fields
 * ({@link RcpErrorFields}), e.g. `status` for `RCP_HTTP_ERROR`, `issues` for
 * `RCP_INVALID_MANIFEST`.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-errors';
 * if (isRcpError(error, 'RCP_HTTP_ERROR')) console.log('server said', error.status, error.bodyExcerpt);
 * ```
 */
export function isRcpError<Code extends RcpErrorCode = RcpErrorCode>(value: unknown, code?: Code): value is RcpErrorOf<Code> {
  if (typeof value !== 'object' || value === null) return false;
  const marked = value instanceof RcpError || (value as Record<symbol, unknown>)[RCP_ERROR_MARKER] === true;
  if (!marked) return false;
  const actual = (value as { code?: unknown }).code;
  if (typeof actual !== 'string') return false;
  return code === undefined || actual === code;
}
