import { generateText, type ToolSet } from 'ai';
import { expectTypeOf, test } from 'vitest';
import type { RcpApprovalRequest, RcpClient, RcpDiscovery } from 'rcp-client';
import { createAISDKTools, type AISDKToolApprovalFunction, type AISDKToolApprovalStatus } from './index';

declare const client: RcpClient<{ userId: string }>;
declare const discovery: RcpDiscovery;

/** AI SDK 7's `ToolApprovalStatus` and per-tool function, as `ai` 7 declares them (it needs Node 22). */
type V7Status =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { type: 'not-applicable'; reason?: never }
  | { type: 'approved'; reason?: string }
  | { type: 'denied'; reason?: string }
  | { type: 'user-approval'; reason?: never };
type V7SingleToolApprovalFunction = (
  input: Record<string, unknown>,
  options: { toolCallId: string; messages: unknown[]; toolContext: unknown; runtimeContext: { userId: string } },
) => V7Status | PromiseLike<V7Status>;

test('the tools keep needsApproval and stay an AI SDK ToolSet', () => {
  const rcp = createAISDKTools(client, discovery);
  expectTypeOf(rcp.tools).toExtend<ToolSet>();
  expectTypeOf(rcp.tools.create_note!.needsApproval).not.toBeUndefined();
  expectTypeOf(rcp.review).returns.resolves.toEqualTypeOf<RcpApprovalRequest | undefined>();
  void generateText({ model: 'openai/gpt-4.1', tools: rcp.tools, prompt: 'x' });
});

test("toolApproval has AI SDK 7's per-tool shape", () => {
  const rcp = createAISDKTools(client, discovery);
  expectTypeOf(rcp.toolApproval.create_note!).toExtend<V7SingleToolApprovalFunction>();
  expectTypeOf<AISDKToolApprovalStatus>().toExtend<V7Status>();
  expectTypeOf<AISDKToolApprovalFunction>().returns.resolves.toEqualTypeOf<AISDKToolApprovalStatus>();
});

test("the reviews live in the client's approval ledger: the tools take no store of their own", () => {
  // @ts-expect-error: share the client's approvalLedger instead
  createAISDKTools(client, discovery, { approvalStore: new Map<string, RcpApprovalRequest>() });
});
