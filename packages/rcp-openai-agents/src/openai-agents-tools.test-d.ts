import { Agent, RunState, type RunResult, type RunToolApprovalItem, type Tool } from '@openai/agents';
import { expectTypeOf, test } from 'vitest';
import type { RcpApprovalRequest, RcpClient, RcpDiscovery } from 'rcp-client';
import { createOpenAIAgentsTools, type OpenAIAgentsApprovalRequest, type OpenAIAgentsTools } from './index';

declare const client: RcpClient<{ userId: string }>;
declare const discovery: RcpDiscovery;
declare const rcp: OpenAIAgentsTools<{ userId: string }>;
declare const result: RunResult<{ userId: string }, Agent<{ userId: string }, any>>;

test('the tools are what an Agent takes, whatever its context, with no casts', () => {
  const agent = new Agent<{ userId: string }>({ name: 'Notes', tools: rcp.tools });
  expectTypeOf(agent.tools).toMatchTypeOf<Tool<{ userId: string }>[]>();
  expectTypeOf(rcp.tools).toMatchTypeOf<Tool<{ userId: string }>[]>();
  expectTypeOf(rcp.stageTools('browse')).toMatchTypeOf<Tool<unknown>[]>();
  new Agent({ name: 'Any', tools: rcp.tools });
});

test("a review is the client's review with a callId; approve and reject take the run's state", async () => {
  const review = await rcp.review(result.interruptions[0]!);
  expectTypeOf(review).toEqualTypeOf<OpenAIAgentsApprovalRequest>();
  expectTypeOf(review).toMatchTypeOf<RcpApprovalRequest>();
  expectTypeOf(review.callId).toEqualTypeOf<string>();
  expectTypeOf(rcp.approve(result.state, review)).toEqualTypeOf<Promise<void>>();
  const state = await RunState.fromString<{ userId: string }, Agent<{ userId: string }, any>>(new Agent<{ userId: string }>({ name: 'Notes' }), '');
  void rcp.approve(state, review);
  rcp.reject(state, review, { reason: 'no' });
  rcp.reject(state, result.interruptions[0] as RunToolApprovalItem);
  // @ts-expect-error a reason is text
  rcp.reject(state, review, { reason: 1 });
  // @ts-expect-error approve needs the review (its digest), not the interruption alone
  void rcp.approve(state, result.interruptions[0]!);
});

test("options: a misspelled key is an error; ctx is the client's context type", () => {
  createOpenAIAgentsTools(client, discovery, { stages: { browse: ['list_notes'] }, ctx: { userId: 'u-1' }, strict: false });
  // @ts-expect-error "stage" is not an option ("stages" is)
  createOpenAIAgentsTools(client, discovery, { stage: { browse: ['list_notes'] } });
  // @ts-expect-error the fixed ctx has the client's context type
  createOpenAIAgentsTools(client, discovery, { ctx: { user: 'u-1' } });
});
