import { expectTypeOf, test } from 'vitest';
import { RcpError, brandRcpErrorClass, isRcpError, type RcpErrorCode, type RcpErrorOf, type RcpIssue } from './index';

declare const error: unknown;

test('isRcpError(error, code) narrows to the fields of that code', () => {
  if (isRcpError(error, 'RCP_HTTP_ERROR')) {
    expectTypeOf(error.code).toEqualTypeOf<'RCP_HTTP_ERROR'>();
    expectTypeOf(error.status).toEqualTypeOf<number>();
    expectTypeOf(error.bodyExcerpt).toEqualTypeOf<string>();
    expectTypeOf(error.url).toEqualTypeOf<string>();
  }
  if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) expectTypeOf(error.issues).toEqualTypeOf<readonly RcpIssue[]>();
  if (isRcpError(error, 'RCP_INVALID_MANIFEST')) expectTypeOf(error.issues).toEqualTypeOf<readonly RcpIssue[]>();
  if (isRcpError(error, 'RCP_UNSUPPORTED_VERSION')) expectTypeOf(error.received).toEqualTypeOf<unknown>();
  if (isRcpError(error, 'RCP_UNRESOLVED')) expectTypeOf(error.param).toEqualTypeOf<string>();
  if (isRcpError(error, 'RCP_UNKNOWN_TOOL')) expectTypeOf(error.available).toEqualTypeOf<readonly string[]>();
});

test('without a code, checking error.code narrows the same way', () => {
  if (isRcpError(error)) {
    expectTypeOf(error.message).toEqualTypeOf<string>();
    if (error.code === 'RCP_RESOLVER_MISMATCH') expectTypeOf(error.resolver).toEqualTypeOf<string>();
    // @ts-expect-error: not every RCP error has a status
    void error.status;
  }
});

test('a code without data fields has only the base fields', () => {
  expectTypeOf<RcpErrorOf<'RCP_TIMEOUT'>>().toHaveProperty('code');
  expectTypeOf<RcpErrorOf<'RCP_TIMEOUT'>>().not.toHaveProperty('status');
});

test('an HTTP error carries the Retry-After seconds (SPEC §18.3)', () => {
  if (isRcpError(error, 'RCP_HTTP_ERROR')) {
    expectTypeOf(error.retryAfterSeconds).toEqualTypeOf<number | undefined>();
  }
});

test('instanceof and isInstance narrow to the class they are asked about', () => {
  class ThingError extends RcpError<'RCP_TIMEOUT'> {
    readonly waited = 30_000;
  }
  if (error instanceof RcpError) expectTypeOf(error.code).toEqualTypeOf<RcpErrorCode>();
  if (error instanceof ThingError) expectTypeOf(error.waited).toEqualTypeOf<number>();
  if (RcpError.isInstance(error)) expectTypeOf(error).toEqualTypeOf<RcpError>();
  if (ThingError.isInstance(error)) {
    expectTypeOf(error).toEqualTypeOf<ThingError>();
    expectTypeOf(error.code).toEqualTypeOf<'RCP_TIMEOUT'>();
  }
});

test('brandRcpErrorClass takes a subclass of RcpError and a string', () => {
  class ThingError extends RcpError<'RCP_TIMEOUT'> {}
  expectTypeOf(brandRcpErrorClass).toBeCallableWith(ThingError, 'my-package.ThingError');
  class NotAnRcpError extends Error {}
  // @ts-expect-error only RcpError classes carry a brand
  brandRcpErrorClass(NotAnRcpError, 'my-package.NotAnRcpError');
});
