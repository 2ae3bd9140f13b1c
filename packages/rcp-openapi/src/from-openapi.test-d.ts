import { expectTypeOf, test } from 'vitest';
import { fromOpenApi, type FromOpenApiOptions, type FromOpenApiResult, type ImportedOperation } from './index';

test('the options take the limits by their full names; a misspelled one is refused', () => {
  expectTypeOf<FromOpenApiOptions['maxBytes']>().toEqualTypeOf<number | undefined>();
  expectTypeOf<FromOpenApiOptions['maxTools']>().toEqualTypeOf<number | undefined>();
  expectTypeOf(fromOpenApi).parameter(1).toEqualTypeOf<FromOpenApiOptions | undefined>();
  // @ts-expect-error: the option is maxBytes
  void fromOpenApi('', { maxByte: 1 });
});

test('includeDeprecated is a boolean under its full name', () => {
  expectTypeOf<FromOpenApiOptions['includeDeprecated']>().toEqualTypeOf<boolean | undefined>();
  // @ts-expect-error: the option is includeDeprecated
  void fromOpenApi('', { deprecated: true });
});

test('a skipped operation says why; the result is the manifest and the report', () => {
  expectTypeOf<ImportedOperation['status']>().toEqualTypeOf<'imported' | 'skipped'>();
  expectTypeOf<ImportedOperation['reason']>().toEqualTypeOf<string | undefined>();
  expectTypeOf(fromOpenApi).returns.resolves.toEqualTypeOf<FromOpenApiResult>();
});
