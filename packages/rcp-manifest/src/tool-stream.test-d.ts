import { expectTypeOf, test } from 'vitest';
import type { RcpStream, RcpTool } from './index';

test("a tool's stream (RCP 0.4): its format and collection are literal unions, read-only", () => {
  expectTypeOf<RcpTool['stream']>().toEqualTypeOf<RcpStream | undefined>();
  expectTypeOf<RcpStream['format']>().toEqualTypeOf<'sse' | 'ndjson'>();
  expectTypeOf<RcpStream['collect']>().toEqualTypeOf<'concat' | 'last' | 'array'>();
  expectTypeOf<RcpStream['maxEvents']>().toEqualTypeOf<number | undefined>();
  const stream: RcpStream = { format: 'sse', collect: 'concat', field: '@delta.text' };
  // @ts-expect-error read-only
  stream.format = 'ndjson';
});
