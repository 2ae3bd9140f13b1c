import { expectTypeOf, test } from 'vitest';
import type { RcpStream } from 'rcp-manifest';
import type { ModelResult } from './to-model-result';
import type { RcpClient, RcpClientTool, RcpContextClient, RcpDiscovery, RcpExecuteResult, RcpPending, RcpResponseProblem } from './index';
import { checkOperation } from './index';

type Ctx = { userId: string };

test('a long-running operation: pending is read-only, resume takes the source, the handle and the typed context', () => {
  expectTypeOf<RcpExecuteResult['pending']>().toEqualTypeOf<RcpPending | undefined>();
  expectTypeOf<RcpPending>().toEqualTypeOf<{ readonly handle: string; readonly checkAfterSeconds: number }>();
  expectTypeOf<RcpClientTool['longRunning']>().toEqualTypeOf<true | undefined>();
  expectTypeOf<RcpClientTool['stream']>().toEqualTypeOf<RcpStream | undefined>();
  expectTypeOf<'no-status-location'>().toExtend<RcpResponseProblem>();
  const client = {} as RcpClient<Ctx>;
  const discovery = {} as RcpDiscovery;
  expectTypeOf(client.resume(discovery, 'rcp1.x', { userId: 'u-1' })).toEqualTypeOf<Promise<RcpExecuteResult>>();
  // @ts-expect-error the context is required when the client has one
  void client.resume(discovery, 'rcp1.x');
  // @ts-expect-error the context is typed
  void client.resume(discovery, 'rcp1.x', { user: 'u-1' });
  const context: RcpContextClient<Ctx> = client;
  expectTypeOf(checkOperation(context, discovery, { handle: 'rcp1.x' }, { userId: 'u-1' })).toEqualTypeOf<Promise<ModelResult>>();
});
