/** The public encoders' documented signatures. */
import { expectTypeOf, test } from 'vitest';
import { encodeFormBody, percentEncode } from './index';

test('percentEncode takes text; encodeFormBody any rendered body', () => {
  expectTypeOf(percentEncode).toEqualTypeOf<(value: string) => string>();
  expectTypeOf(encodeFormBody).toEqualTypeOf<(body: unknown) => string>();
});
