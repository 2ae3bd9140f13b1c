import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryApprovalLedger, createRcpClient, type RcpApprovalLedger, type RcpApprovalPolicy } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAISDKTools, type AISDKTurn } from './index';

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  notes.route('POST /users/u-2/notes', (_request, res) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
afterEach(async () => {
  await notes.close();
});

type Ctx = { userId?: string };
const notesClient = (approval: RcpApprovalPolicy<Ctx> = 'writes', approvalLedger?: RcpApprovalLedger) =>
  // Every client of these tests holds the operator's approval secret, as the processes of one app do.
  createRcpClient({
    resolvers: { userId: (ctx: Ctx) => ctx.userId },
    credentials: () => NOTES_TOKEN,
    approval,
    approvalSecret: 'the notes app approval secret, 32+ bytes',
    ...(approvalLedger !== undefined && { approvalLedger }),
  });
const toolRequests = () => toolRequestLines(notes);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const toolCalls = (...calls: [string, string, unknown][]) => ({
  content: calls.map(([toolCallId, toolName, input]) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) })),
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const text = (value: string) => ({
  content: [{ type: 'text' as const, text: value }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
});

const prompt: ModelMessage[] = [{ role: 'user', content: 'Add a note "Milk".' }];
const createMilk = { title: 'Milk', pinned: true };

/** A first turn that pauses on `create_note`, as a person would find it. */
async function pausedTurn(client = notesClient(), options: Parameters<typeof createAISDKTools<Ctx>>[2] = {}) {
  const rcp = createAISDKTools(client, await client.discover(manifestUrl), options);
  const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'create_note', createMilk]), text('Done.'), text('Done again.')] });
  const first = await generateText({ model, tools: rcp.tools, messages: prompt, stopWhen: stepCountIs(4), experimental_context: { userId: 'u-1' } });
  const request = first.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('the call did not pause');
  /** The history with the person's answer, as the next `generateText` is given it. */
  const answered = (approved: boolean, reason?: string): ModelMessage[] => [
    ...prompt,
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved, ...(reason !== undefined && { reason }) }] },
  ];
  return { rcp, model, first, request, answered };
}

/** The tool result the model is sent next, its text (`toModelText`'s JSON) parsed. */
const resultOf = (result: { readonly response: { readonly messages: readonly ModelMessage[] } }) => {
  const part = result.response.messages.flatMap((message) => (message.role === 'tool' ? message.content : [])).find((item) => item.type === 'tool-result');
  const output = part?.output;
  return output?.type === 'text' || output?.type === 'error-text'
    ? { ...part, output: { type: output.type, value: JSON.parse(output.value) as unknown } }
    : part;
};

describe('needsApproval from the client policy (AI SDK 6)', () => {
  it('pauses on a user-approval call with nothing sent; the review is the exact request, the credential redacted', async () => {
    const { rcp, first, request } = await pausedTurn();
    expect(request.toolCall).toMatchObject({ toolName: 'create_note', toolCallId: 'c1', input: createMilk });
    expect(first.toolResults).toEqual([]);
    expect(toolRequests()).toEqual([]);
    const review = await rcp.review('c1');
    expect(review).toMatchObject({
      tool: 'create_note',
      decision: 'user-approval',
      reason: 'the call changes data (approval: "writes")',
      request: {
        method: 'POST',
        url: notes.url('/users/u-1/notes'),
        headers: { Authorization: 'Bearer [redacted]' },
        body: { title: 'Milk', pinned: true },
      },
    });
    expect(review!.request.headers).toEqual({ 'content-type': 'application/json', Authorization: 'Bearer [redacted]' });
    expect(JSON.stringify(review)).not.toContain(NOTES_TOKEN);
    expect(await rcp.review('c-unknown')).toBeUndefined();
  });

  it('approve: exactly the previewed request reaches the server, and the model reads the result', async () => {
    const { rcp, model, answered } = await pausedTurn();
    const review = (await rcp.review('c1'))!;
    const second = await generateText({ model, tools: rcp.tools, messages: answered(true), experimental_context: { userId: 'u-1' } });
    expect(notes.requests.filter((r) => r.path !== '/rcp/manifest')).toHaveLength(1);
    const sent = notes.requests.at(-1)!;
    expect(sent.method).toBe(review.request.method);
    expect(notes.url(sent.url)).toBe(review.request.url);
    expect(sent.json).toEqual(review.request.body);
    expect(sent.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
    expect(resultOf(second)).toMatchObject({ output: { type: 'text', value: { ok: true, data: { id: 'n-2', title: 'Milk', pinned: true } } } });
    expect(second.text).toBe('Done.');
  });

  it('deny: nothing is sent and the model reads the reason', async () => {
    const { rcp, model, answered } = await pausedTurn();
    const second = await generateText({ model, tools: rcp.tools, messages: answered(false, 'Not today.'), experimental_context: { userId: 'u-1' } });
    expect(toolRequests()).toEqual([]);
    expect(resultOf(second)).toMatchObject({ output: { type: 'execution-denied', reason: 'Not today.' } });
    expect(JSON.stringify(model.doGenerateCalls.at(-1)!.prompt)).toContain('Not today.');
  });

  it('a denied policy decision: no pause, nothing sent, the model reads the reason', async () => {
    const client = notesClient({ delete_note: { decision: 'denied', reason: 'deletes are off today' } });
    const rcp = createAISDKTools(client, await client.discover(manifestUrl));
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'delete_note', { noteId: 'n-1' }]), text('ok')] });
    const result = await generateText({ model, tools: rcp.tools, prompt: 'delete it', stopWhen: stepCountIs(3), experimental_context: { userId: 'u-1' } });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(result.steps[0]!.toolResults[0]!.output).toEqual({
      ok: false,
      error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: deletes are off today' },
    });
    expect(toolRequests()).toEqual([]);
    expect(await rcp.review('c1')).toBeUndefined();
  });

  it('a call that needs no approval runs as before, and one outside the stage neither pauses nor sends', async () => {
    const client = notesClient();
    const rcp = createAISDKTools(client, await client.discover(manifestUrl), {
      stages: { browse: ['list_notes'] },
      turn: (context) => context as AISDKTurn<Ctx>,
    });
    const model = new MockLanguageModelV3({ doGenerate: [toolCalls(['c1', 'list_notes', {}], ['c2', 'delete_note', { noteId: 'n-1' }]), text('ok')] });
    const result = await generateText({
      model,
      tools: rcp.tools,
      prompt: 'x',
      stopWhen: stepCountIs(3),
      experimental_context: { ctx: { userId: 'u-1' }, stage: 'browse' },
    });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(result.steps[0]!.toolResults.map((part) => part.output)).toMatchObject([{ ok: true }, { ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE' } }]);
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
  });
});

describe('an approval is bound to the reviewed request', () => {
  it('replayed for changed arguments: RCP_APPROVAL_MISMATCH, nothing sent', async () => {
    const { rcp, model, answered } = await pausedTurn();
    // The history is the application's (a browser may hold it): the approved call's input edited.
    const messages = answered(true).map((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? { ...message, content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, input: { title: 'Rent', pinned: true } } : part)) }
        : message,
    );
    const second = await generateText({ model, tools: rcp.tools, messages, experimental_context: { userId: 'u-1' } });
    expect(resultOf(second)).toMatchObject({
      output: {
        type: 'error-text',
        value: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } },
      },
    });
    expect(toolRequests()).toEqual([]);
  });

  it('replayed with a changed resolver value (another user): refused, nothing sent', async () => {
    const { rcp, model, answered } = await pausedTurn();
    const second = await generateText({ model, tools: rcp.tools, messages: answered(true), experimental_context: { userId: 'u-2' } });
    expect(resultOf(second)).toMatchObject({ output: { value: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } } } });
    expect(toolRequests()).toEqual([]);
  });

  it('replayed for a second call: refused, the server received one request', async () => {
    const { rcp, model, answered } = await pausedTurn();
    await generateText({ model, tools: rcp.tools, messages: answered(true), experimental_context: { userId: 'u-1' } });
    const again = await generateText({ model, tools: rcp.tools, messages: answered(true), experimental_context: { userId: 'u-1' } });
    expect(resultOf(again)).toMatchObject({ output: { value: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } } } });
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });

  it('a kept review answered in another process (a new client and tools instance sharing the ledger): sent as reviewed', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const { answered } = await pausedTurn(notesClient('writes', approvalLedger));
    const elsewhere = notesClient('writes', approvalLedger);
    const rcp = createAISDKTools(elsewhere, await elsewhere.discover(manifestUrl));
    expect(await rcp.review('c1')).toMatchObject({ request: { method: 'POST', url: notes.url('/users/u-1/notes') } });
    const model = new MockLanguageModelV3({ doGenerate: [text('Done.')] });
    const second = await generateText({ model, tools: rcp.tools, messages: answered(true), experimental_context: { userId: 'u-1' } });
    expect(resultOf(second)).toMatchObject({ output: { value: { ok: true } } });
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });
});

describe('toolApproval: the same decision in AI SDK 7 shape', () => {
  it('maps user-approval, denied (with its reason), approved and not-applicable, keeping the review', async () => {
    const client = notesClient({
      create_note: 'user-approval',
      delete_note: { decision: 'denied', reason: 'deletes are off today' },
      get_note: 'approved',
    });
    const rcp = createAISDKTools(client, await client.discover(manifestUrl));
    const runtimeContext = { userId: 'u-1' };
    expect(Object.keys(rcp.toolApproval)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(await rcp.toolApproval.create_note!(createMilk, { toolCallId: 'v7-1', runtimeContext })).toBe('user-approval');
    expect(await rcp.review('v7-1')).toMatchObject({ request: { method: 'POST', url: notes.url('/users/u-1/notes') } });
    expect(await rcp.toolApproval.delete_note!({ noteId: 'n-1' }, { toolCallId: 'v7-2', runtimeContext })).toEqual({
      type: 'denied',
      reason: 'deletes are off today',
    });
    expect(await rcp.toolApproval.get_note!({ noteId: 'n-1' }, { toolCallId: 'v7-3', runtimeContext })).toEqual({ type: 'approved' });
    expect(await rcp.toolApproval.list_notes!({}, { toolCallId: 'v7-4', runtimeContext })).toBe('not-applicable');
    // Asked again when the run resumes, the paused call keeps its review (and stays paused for the person).
    const review = await rcp.review('v7-1');
    expect(await rcp.toolApproval.create_note!({ title: 'Rent' }, { toolCallId: 'v7-1', runtimeContext })).toBe('user-approval');
    expect(await rcp.review('v7-1')).toEqual(review);
    // The tool the AI SDK runs after the person's yes (its history holds the approval request)
    // sends exactly the reviewed request.
    const messages: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'tool-approval-request', approvalId: 'a-1', toolCallId: 'v7-1' }] },
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a-1', approved: true }] },
    ];
    const output = await rcp.tools.create_note!.execute!(createMilk, { toolCallId: 'v7-1', messages, experimental_context: runtimeContext });
    expect(output).toMatchObject({ ok: true });
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });
});
