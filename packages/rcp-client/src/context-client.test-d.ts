import { expectTypeOf, test } from 'vitest';
import { createRcpClient, type RcpClient, type RcpContextClient, type RcpDiscovery } from './index';

declare const discovery: RcpDiscovery;

test('a client is its own RcpContextClient for its Context, without a cast', () => {
  const client = createRcpClient<{ userId: string }>({ resolvers: { currentUserId: (ctx) => ctx.userId } });
  const calls: RcpContextClient<{ userId: string }> = client;
  void calls.call(discovery, { name: 'get_note', arguments: '{}' }, { userId: 'u-1' }, { signal: AbortSignal.timeout(1_000) });
  void calls.decide(discovery.tools[0]!, {}, { userId: 'u-1' });
  void calls.review(discovery.tools[0]!, {}, { userId: 'u-1' });
  // @ts-expect-error — not the client's context
  void calls.call(discovery, { name: 'get_note', arguments: '{}' }, { user: 'u-1' });
  // @ts-expect-error — the context is required
  void calls.decide(discovery.tools[0]!, {});
  // @ts-expect-error — a client of another context is not this one
  const other: RcpContextClient<{ tenant: number }> = client;
  void other;
});

test('a generic adapter assigns RcpClient<Context> for any Context', () => {
  function adapter<Context>(client: RcpClient<Context>, ctx: Context): RcpContextClient<Context> {
    const calls: RcpContextClient<Context> = client;
    void calls.call(discovery, { name: 'get_note', arguments: {} }, ctx);
    return calls;
  }
  expectTypeOf(adapter<{ userId: string }>(createRcpClient<{ userId: string }>(), { userId: 'u-1' })).toEqualTypeOf<RcpContextClient<{ userId: string }>>();
});
