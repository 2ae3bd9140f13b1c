/**
 * Long-running operations through the agent-core bridge (SPEC §20.8), against the shared operation
 * API (a `202` with a `Location`, running until the test finishes it). A call plan holds the
 * discovered tool it runs, and the tool a handle resumes is sealed in it, so the bridge offers the
 * model no check tool: `registry.warnings` says so, the plan's result carries the pending handle to
 * the model, and the application completes it with `client.resume` — for the same user only.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRcpClient, RcpError } from 'rcp-client';
import { OPERATION_RESULT, operationManifest, serveManifest, startOperationApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createRcpRegistry, toModelResult } from './index';

let api: TestServer;
let manifestUrl: string;
let finish: () => void;
beforeEach(async () => {
  ({ server: api, manifestUrl, finish } = await startOperationApi());
});
afterEach(async () => {
  await api.close();
});

type Ctx = { userId: string };
const ADA: Ctx = { userId: 'ada' };
const client = () => createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.userId } });

it('a pending result reaches the model with its handle; the warning says to check it with client.resume, which completes it for its user only', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(manifestUrl);
  const { transports, warnings } = createRcpRegistry({ client: rcpClient, discoveries: discovery, stages: { act: () => true } });
  expect(transports.act.catalog().map((tool) => tool.name)).toEqual(['render_video', 'get_status']);
  expect(warnings).toEqual([
    'Tool "render_video": it is long-running and a call may answer pending with a handle; this bridge offers the model no check tool (a call plan holds its discovered tool), so check it in the application with client.resume(discoveries, handle, ctx)',
  ]);

  const plan = transports.act.select({ name: 'render_video', arguments: '{"prompt":"a lighthouse"}' });
  const forModel = toModelResult(await plan.execute(ADA));
  expect(forModel).toMatchObject({ ok: true, data: { id: 'j-1', status: 'queued' }, pending: { checkAfterSeconds: 60 } });
  const handle = forModel.ok ? forModel.pending!.handle : '';

  finish();
  const sentBefore = api.requests.length;
  const refused = await rcpClient.resume(discovery, handle, { userId: 'bob' }).catch((error: unknown) => error);
  expect(toModelResult(refused)).toEqual(toModelResult(new RcpError('RCP_INVALID_HANDLE', 'x')));
  expect(api.requests).toHaveLength(sentBefore);
  expect(toModelResult(await rcpClient.resume(discovery, handle, ADA))).toEqual({ ok: true, data: OPERATION_RESULT });
  expect(toolRequestLines(api)).toEqual(['POST /renders', 'GET /jobs/j-1']);
});

it('a catalog without a long-running tool is as before: no warning', async () => {
  const rcpClient = client();
  const discovery = await rcpClient.discover(serveManifest(api, { rcpVersion: '0.4', tools: [operationManifest.tools[1]] }, '/rcp/plain'));
  const { registry, warnings } = createRcpRegistry({ client: rcpClient, discoveries: discovery });
  expect(registry.ids()).toEqual(['get_status']);
  expect(warnings).toEqual([]);
});
