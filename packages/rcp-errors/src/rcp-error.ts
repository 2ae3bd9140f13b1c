import type { RcpErrorCode } from './codes';
import type { RcpErrorFieldsOf } from './error-fields';
import { brandedHasInstance, defineBrand, ownBrandOf, stampBrands } from './internal/error-brand';

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
 * `instanceof` works across two installed copies of the SDK (two versions side by side, or
 * the ESM and the CJS build): `RcpError` and every SDK error class that users check
 * (`RcpTemplateError`, `RcpHttpError`, ...) carry a brand, and `instanceof` matches an error
 * from either copy by its brand before it falls back to the prototype chain. A subclass of your
 * own matches by prototype unless you brand it with {@link brandRcpErrorClass}.
 * {@link isRcpError} also checks for a string `code` and narrows on one code.
 *
 * @example
 * ```ts
 * import { RcpError } from 'rcp-errors';
 * throw new RcpError('RCP_INVALID_ARGUMENTS', 'Argument "query" is required', { cause });
 * ```
 */
export class RcpError<Code extends RcpErrorCode = RcpErrorCode> extends Error {
  static {
    defineBrand(RcpError, 'rcp-errors.RcpError');
  }

  /**
   * What `value instanceof RcpError` (or `instanceof` any subclass) runs: true when `value` was
   * built by this class or a subclass, in this copy of the SDK or another one. Another copy's
   * error matches by the brand of the class on the right; a class without a brand of its own
   * (a subclass you wrote and did not brand) matches by prototype only.
   *
   * @example
   * ```ts
   * import { RcpError } from 'rcp-errors';
   * if (error instanceof RcpError) console.log(error.code); // also for an error from a second install
   * ```
   */
  static override [Symbol.hasInstance]<Class extends abstract new (...args: never[]) => unknown>(this: Class, value: unknown): value is InstanceType<Class> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof (a subclass too), not RcpError
    return brandedHasInstance(this, value);
  }

  /**
   * The same test as `value instanceof` the class it is called on, as a type guard:
   * `RcpTemplateError.isInstance(error)` narrows to `RcpTemplateError`. Call it on the class;
   * as a callback write `(error) => RcpError.isInstance(error)`.
   *
   * @throws RcpError `RCP_INVALID_OPTIONS` when called detached from its class.
   *
   * @example
   * ```ts
   * if (RcpError.isInstance(error)) console.log(error.code);
   * const failures = errors.filter((error) => RcpError.isInstance(error));
   * ```
   */
  static isInstance<Class extends abstract new (...args: never[]) => unknown>(this: Class, value: unknown): value is InstanceType<Class> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class isInstance is called on (a subclass too), not RcpError
    if (typeof this !== 'function') {
      throw new RcpError(
        'RCP_INVALID_OPTIONS',
        'isInstance must be called on an error class (RcpError.isInstance(value)); as a callback write (value) => RcpError.isInstance(value)',
      );
    }
    // biome-ignore lint/complexity/noThisInStatic: as above
    return brandedHasInstance(this, value);
  }

  /** Stable, machine-readable error code. */
  readonly code: Code;

  constructor(code: Code, message: string, options: RcpErrorOptions = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    Object.defineProperty(this, 'name', { value: new.target.name, enumerable: false, configurable: true, writable: true });
    stampBrands(this, new.target);
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
 * Gives a subclass of {@link RcpError} its brand, so `instanceof` that class also matches its
 * errors from a second installed copy of the package that defines it. Call it once, in the
 * class's static block, naming the class. The brand is `'<package>.<ClassName>'` and never changes between
 * versions (a brand says "same class", not "same fields": read fields defensively). A class
 * left unbranded matches by prototype only, within its own copy.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` when `errorClass` does not extend `RcpError`, already
 *   has a brand, or `brand` is empty or one a class it extends already carries.
 *
 * @example
 * ```ts
 * import { RcpError, brandRcpErrorClass } from 'rcp-errors';
 *
 * export class BillingError extends RcpError<'RCP_HTTP_ERROR'> {
 *   static {
 *     brandRcpErrorClass(BillingError, 'billing-tools.BillingError');
 *   }
 * }
 * ```
 */
export function brandRcpErrorClass(errorClass: abstract new (...args: never[]) => RcpError, brand: string): void {
  const prototype: unknown = typeof errorClass === 'function' ? errorClass.prototype : undefined;
  const name = typeof errorClass === 'function' ? errorClass.name || 'the class' : String(errorClass);
  if (typeof prototype !== 'object' || prototype === null || !Object.prototype.isPrototypeOf.call(RcpError.prototype, prototype)) {
    throw new RcpError('RCP_INVALID_OPTIONS', `brandRcpErrorClass: ${name} does not extend RcpError`);
  }
  if (ownBrandOf(errorClass) !== undefined) {
    throw new RcpError('RCP_INVALID_OPTIONS', `brandRcpErrorClass: ${name} already has a brand`);
  }
  if (typeof brand !== 'string' || brand === '') {
    throw new RcpError('RCP_INVALID_OPTIONS', `brandRcpErrorClass: the brand of ${name} must be a non-empty string`);
  }
  for (let parent = Object.getPrototypeOf(errorClass); typeof parent === 'function'; parent = Object.getPrototypeOf(parent)) {
    if (ownBrandOf(parent) === brand) {
      throw new RcpError('RCP_INVALID_OPTIONS', `brandRcpErrorClass: ${name} cannot take the brand of ${parent.name}, a class it extends`);
    }
  }
  defineBrand(errorClass, brand);
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
 * Recognises an {@link RcpError}: `value instanceof RcpError` (which holds across two
 * installed copies of the SDK, by brand) with a string `code`. Pass `code` to also narrow on
 * one code: the error is then typed with that code's fields ({@link RcpErrorFields}), e.g.
 * `status` for `RCP_HTTP_ERROR`, `issues` for `RCP_INVALID_MANIFEST`.
 *
 * @example
 * ```ts
 * import { isRcpError } from 'rcp-errors';
 * if (isRcpError(error, 'RCP_HTTP_ERROR')) console.log('server said', error.status, error.bodyExcerpt);
 * ```
 */
export function isRcpError<Code extends RcpErrorCode = RcpErrorCode>(value: unknown, code?: Code): value is RcpErrorOf<Code> {
  if (!(value instanceof RcpError)) return false;
  const actual: unknown = value.code;
  if (typeof actual !== 'string') return false;
  return code === undefined || actual === code;
}
