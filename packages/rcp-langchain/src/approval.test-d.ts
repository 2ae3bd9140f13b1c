import { createAgent, humanInTheLoopMiddleware, type EditDecision, type HITLResponse, type InterruptOnConfig } from 'langchain';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { expectTypeOf, test } from 'vitest';
import type { RcpApprovalRequest, RcpClient, RcpDiscovery } from 'rcp-client';
import {
  createLangChainApprovals,
  type LangChainApprovalsOptions,
  type LangChainEdit,
  type LangChainInterruptOnConfig,
  type LangChainPendingApproval,
} from './index';

declare const client: RcpClient<{ userId: string }>;
declare const discovery: RcpDiscovery;

test("interruptOn is what humanInTheLoopMiddleware takes, with langchain's own types", () => {
  const approvals = createLangChainApprovals(client, discovery);
  expectTypeOf(approvals.interruptOn.create_note!).toExtend<InterruptOnConfig>();
  humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn });
  humanInTheLoopMiddleware({ interruptOn: { ...approvals.interruptOn, my_own_tool: true } });
  createAgent({ model: 'openai:gpt-4.1', tools: approvals.tools, middleware: [humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn })] });
  expectTypeOf(approvals.tools).toEqualTypeOf<StructuredToolInterface[]>();
  expectTypeOf<LangChainInterruptOnConfig['allowedDecisions'][number]>().toEqualTypeOf<'approve' | 'edit' | 'reject'>();
});

test("an edit's decision is a langchain EditDecision, resumable as an HITLResponse", () => {
  expectTypeOf<LangChainEdit['decision']>().toExtend<EditDecision>();
  const resume = (edit: LangChainEdit): HITLResponse => ({ decisions: [edit.decision] });
  expectTypeOf(resume).returns.toEqualTypeOf<HITLResponse>();
  const approvals = createLangChainApprovals(client, discovery);
  expectTypeOf(approvals.edit).returns.resolves.toEqualTypeOf<LangChainEdit>();
  expectTypeOf(approvals.pending).returns.resolves.toEqualTypeOf<LangChainPendingApproval[]>();
  expectTypeOf(approvals.review).returns.resolves.toEqualTypeOf<RcpApprovalRequest | undefined>();
  // A pending call is what edit() takes.
  expectTypeOf<LangChainPendingApproval>().toExtend<Parameters<typeof approvals.edit>[0]>();
});

test("the options: the tool options and the context; the reviews live in the client's ledger", () => {
  createLangChainApprovals(client, discovery, { context: (configurable) => ({ userId: String(configurable.user_id) }) });
  // @ts-expect-error: share the client's approvalLedger instead
  createLangChainApprovals(client, discovery, { approvalStore: new Map<string, RcpApprovalRequest>() });
  expectTypeOf<LangChainApprovalsOptions<{ userId: string }>>().toHaveProperty('context');
});
