import type { RcpStream } from 'rcp-manifest';
import { expectTypeOf, test } from 'vitest';
import { defineTool, type ServerTool } from './index';

test('a tool declares stream as the manifest writes it, and its handler may return an async generator', () => {
  defineTool({
    name: 'chat',
    description: 'Streams.',
    method: 'POST',
    path: '/chat',
    stream: { format: 'sse', collect: 'concat', field: '@delta', maxEvents: 100 },
    handler: async function* () {
      yield { delta: 'a' };
    },
  });
  defineTool({ name: 'rows', description: 'Rows.', method: 'GET', path: '/rows', stream: { format: 'ndjson', collect: 'array' }, handler: () => [1, 2] });
  // @ts-expect-error: a format the manifest does not have
  defineTool({ name: 'x', description: 'X.', method: 'GET', path: '/x', stream: { format: 'jsonl', collect: 'array' }, handler: () => [] });
  // @ts-expect-error: collect is required
  defineTool({ name: 'x', description: 'X.', method: 'GET', path: '/x', stream: { format: 'sse' }, handler: () => [] });
  expectTypeOf<ServerTool['stream']>().toEqualTypeOf<RcpStream | undefined>();
});
