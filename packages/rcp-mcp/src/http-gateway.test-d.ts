import { expectTypeOf, test } from 'vitest';
import type { RcpMcpHttpOptions } from './index';

test('allowedHosts and allowedOrigins are optional lists of host names', () => {
  expectTypeOf<RcpMcpHttpOptions['allowedHosts']>().toEqualTypeOf<readonly string[] | undefined>();
  expectTypeOf<RcpMcpHttpOptions['allowedOrigins']>().toEqualTypeOf<readonly string[] | undefined>();
  // @ts-expect-error a list, not one host name
  const one: RcpMcpHttpOptions['allowedOrigins'] = 'app.example.com';
  void one;
});
