/**
 * What the README's "Errors" section promises about types: `isRcpError(error, code)` narrows to
 * that code's fields, `instanceof RcpTemplateError` to the three template codes, and a misspelled
 * code does not compile.
 */
import { expectTypeOf, test } from 'vitest';
import { isRcpError, type RcpError, RcpTemplateError, type RcpErrorCode, type RcpErrorOf, type RcpTemplateErrorCode, type TemplatePosition } from './index';

declare const error: unknown;

test('the template codes are the three documented ones, all RCP error codes', () => {
  expectTypeOf<RcpTemplateErrorCode>().toEqualTypeOf<'RCP_TEMPLATE_SYNTAX' | 'RCP_TEMPLATE_VALUE' | 'RCP_TEMPLATE_MISSING'>();
  expectTypeOf<RcpTemplateErrorCode>().toExtend<RcpErrorCode>();
  expectTypeOf<TemplatePosition>().toEqualTypeOf<'path' | 'query' | 'header' | 'body'>();
});

test('isRcpError with RCP_TEMPLATE_SYNTAX narrows to offset and template', () => {
  if (isRcpError(error, 'RCP_TEMPLATE_SYNTAX')) {
    expectTypeOf(error.code).toEqualTypeOf<'RCP_TEMPLATE_SYNTAX'>();
    expectTypeOf(error.offset).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.template).toEqualTypeOf<string | undefined>();
    expectTypeOf(error).toExtend<RcpError>();
    // @ts-expect-error a syntax error carries no position (value and missing errors only)
    void error.position;
  }
});

test('isRcpError with RCP_TEMPLATE_VALUE or RCP_TEMPLATE_MISSING narrows to token and position', () => {
  if (isRcpError(error, 'RCP_TEMPLATE_VALUE')) {
    expectTypeOf(error.code).toEqualTypeOf<'RCP_TEMPLATE_VALUE'>();
    expectTypeOf(error.token).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.position).toEqualTypeOf<TemplatePosition | undefined>();
    // @ts-expect-error a value error carries no offset (syntax errors only)
    void error.offset;
  }
  if (isRcpError(error, 'RCP_TEMPLATE_MISSING')) {
    expectTypeOf(error.token).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.position).toEqualTypeOf<TemplatePosition | undefined>();
  }
  expectTypeOf<RcpErrorOf<'RCP_TEMPLATE_MISSING'>['position']>().toEqualTypeOf<TemplatePosition | undefined>();
});

test('a union of codes narrows further on error.code', () => {
  const codes = ['RCP_TEMPLATE_VALUE', 'RCP_TEMPLATE_SYNTAX'] as const;
  const code = codes[0] as (typeof codes)[number];
  if (isRcpError(error, code)) {
    expectTypeOf(error.code).toEqualTypeOf<'RCP_TEMPLATE_VALUE' | 'RCP_TEMPLATE_SYNTAX'>();
    if (error.code === 'RCP_TEMPLATE_SYNTAX') expectTypeOf(error.offset).toEqualTypeOf<number | undefined>();
    else expectTypeOf(error.position).toEqualTypeOf<TemplatePosition | undefined>();
  }
});

test('isRcpError without a code narrows to any RCP error; a misspelled code does not compile', () => {
  if (isRcpError(error)) expectTypeOf(error.code).toEqualTypeOf<RcpErrorCode>();
  expectTypeOf(isRcpError).guards.toExtend<RcpError>();
  // @ts-expect-error not an RCP error code
  isRcpError(error, 'RCP_TEMPLATE_SYNTAXX');
});

test('instanceof RcpTemplateError narrows to the template codes and every documented field', () => {
  if (error instanceof RcpTemplateError) {
    expectTypeOf(error.code).toEqualTypeOf<RcpTemplateErrorCode>();
    expectTypeOf(error.offset).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.template).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.token).toEqualTypeOf<string | undefined>();
    expectTypeOf(error.position).toEqualTypeOf<TemplatePosition | undefined>();
    expectTypeOf(error).toExtend<RcpError<RcpTemplateErrorCode>>();
    if (error.code === 'RCP_TEMPLATE_VALUE') expectTypeOf(error.code).toEqualTypeOf<'RCP_TEMPLATE_VALUE'>();
  }
});

test('the constructor takes a template code and the documented options only', () => {
  new RcpTemplateError('RCP_TEMPLATE_MISSING', 'Path token "id" has no value', { token: 'id', position: 'path' });
  new RcpTemplateError('RCP_TEMPLATE_SYNTAX', 'bad', { offset: 3, template: '/{{ x}}', cause: new Error('x') });
  // @ts-expect-error not a template code (RCP_INVALID_OPTIONS is a plain RcpError)
  new RcpTemplateError('RCP_INVALID_OPTIONS', 'x');
  // @ts-expect-error not a position
  new RcpTemplateError('RCP_TEMPLATE_VALUE', 'x', { token: 'id', position: 'fragment' });
  // @ts-expect-error a misspelled option
  new RcpTemplateError('RCP_TEMPLATE_VALUE', 'x', { tokn: 'id' });
});
