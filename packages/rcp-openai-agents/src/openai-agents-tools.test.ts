/**
 * The real OpenAI Agents SDK (0.14.3: `Agent`, `Runner`, `RunState`) with the real `openai` client
 * pointed at a loopback fake of the Responses API (the SDK's default API) that scripts the
 * model's tool calls, against a local notes API whose log is the judge of what was sent.
 */
import OpenAI from 'openai';
import { Agent, OpenAIProvider, RunContext, RunState, Runner } from '@openai/agents';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryApprovalLedger, createRcpClient, isRcpError, type RcpApprovalLedger, type RcpApprovalPolicy } from 'rcp-client';
import { type ModelFake, type ModelTurn, startModelFake } from 'rcp-model-fake';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type RecordedRequest, type TestServer } from 'rcp-test-utils';
import { createOpenAIAgentsTools, type OpenAIAgentsApprovalRequest, type OpenAIAgentsTurn } from './index';

type Ctx = { userId?: string };

let notes: TestServer;
let manifestUrl: string;
let fake: ModelFake;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
  fake = await startModelFake();
});
afterEach(async () => {
  await Promise.all([notes.close(), fake.close()]);
});

/** A model turn that calls tools: `[callId, name, arguments]` each. */
const calls = (...list: [string, string, Record<string, unknown>][]): ModelTurn => ({
  toolCalls: list.map(([id, name, args]) => ({ id, name, arguments: args })),
});
const says = (text: string): ModelTurn => ({ text });

/** Scripts the fake Responses API: one answer per request, in order (a request past the last is a 400). */
function script(...answers: ModelTurn[]): void {
  fake.script(...answers);
}

/** A Runner whose model provider is the real `openai` client at the fake (no traces leave the machine). */
const runner = () =>
  new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 }) }),
    tracingDisabled: true,
  });

const notesClient = (approval?: RcpApprovalPolicy<Ctx>, approvalLedger?: RcpApprovalLedger) =>
  createRcpClient({
    ...(approvalLedger !== undefined && { approvalLedger }),
    resolvers: { userId: (ctx: Ctx) => ctx.userId },
    credentials: () => NOTES_TOKEN,
    // Every "process" of these tests shares the operator's secret, so a stored review binds in another one.
    approvalSecret: 'the operator secret of the notes app, 32+ bytes',
    ...(approval !== undefined && { approval }),
  });

/** One "process": a client, its tools and the agent, all new. */
async function setUp(approval?: RcpApprovalPolicy<Ctx>, options: Parameters<typeof createOpenAIAgentsTools<Ctx>>[2] = {}, approvalLedger?: RcpApprovalLedger) {
  const client = notesClient(approval, approvalLedger);
  const rcp = createOpenAIAgentsTools(client, await client.discover(manifestUrl), options);
  const agent = new Agent({ name: 'Notes', instructions: 'Help with notes.', model: 'gpt-test', tools: rcp.tools });
  return { client, rcp, agent };
}

/** What the fake model was sent back for `callId` (the function_call_output item), parsed when it is JSON. */
function sentBack(callId: string): unknown {
  for (const request of [...fake.requests].reverse()) {
    const item = request.toolResults.find((result) => result.callId === callId);
    if (item === undefined) continue;
    try {
      return JSON.parse(item.text);
    } catch {
      return item.output;
    }
  }
  return undefined;
}

const toolRequests = () => toolRequestLines(notes);
const toolRequestsOnly = (): RecordedRequest[] => notes.requests.filter((request) => request.path !== '/rcp/manifest');

describe('tools', () => {
  it('are sent strict, without resolver-bound params; a read runs at once and the model reads toModelResult', async () => {
    script(calls(['call_1', 'list_notes', { tag: null }]), says('You have one note.'));
    const { rcp, agent } = await setUp('writes');
    const result = await runner().run(agent, 'what notes do I have?', { context: { userId: 'u-1' } });
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('You have one note.');
    const sentTools = fake.requests[0]!.body.tools as { name: string; strict: boolean; parameters: unknown }[];
    expect(sentTools.map((tool) => tool.name)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(sentTools[0]).toMatchObject({
      strict: true,
      parameters: { type: 'object', properties: { tag: { type: ['string', 'null'] } }, required: ['tag'], additionalProperties: false },
    });
    expect(JSON.stringify(sentTools)).not.toContain('userId');
    expect(rcp.warnings).toEqual([]);
    // A null optional argument is "not given".
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
    expect(notes.requests.at(-1)!.rawQuery).toBe('');
    expect(sentBack('call_1')).toEqual({ ok: true, data: [{ id: 'n-1', title: 'Groceries' }] });
  });

  it('a spoofed resolver param and a wrong argument: the model reads RCP_INVALID_ARGUMENTS, no pause, nothing sent', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1', userId: 'u-7' }], ['call_2', 'get_note', { noteId: 7 }]), says('ok'));
    const { agent } = await setUp('writes');
    const result = await runner().run(agent, 'delete n-1 of u-7', { context: { userId: 'u-1' } });
    expect(result.interruptions).toEqual([]);
    expect(sentBack('call_1')).toMatchObject({
      ok: false,
      error: { code: 'RCP_INVALID_ARGUMENTS', message: expect.stringContaining('/userId is not a parameter') },
    });
    expect(sentBack('call_2')).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(toolRequests()).toEqual([]);
  });

  it('strict: false sends every tool non-strict, closed', async () => {
    const { rcp } = await setUp(undefined, { strict: false });
    expect(rcp.tools.map((tool) => [tool.strict, tool.parameters.additionalProperties])).toEqual([
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });
});

describe('approval: the client decides, the run pauses, a person approves the exact request', () => {
  it('a user-approval call pauses the run with nothing sent; the review is the exact request, resolver value in', async () => {
    script(calls(['call_1', 'create_note', { title: 'Call mum', text: null, pinned: true }]));
    const { rcp, agent } = await setUp('writes');
    const result = await runner().run(agent, 'note: call mum', { context: { userId: 'u-1' } });
    expect(result.interruptions.map((item) => [item.name, item.arguments])).toEqual([['create_note', '{"title":"Call mum","text":null,"pinned":true}']]);
    expect(toolRequests()).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    const review = await rcp.review(result.interruptions[0]!);
    expect(review).toMatchObject({
      callId: 'call_1',
      tool: 'create_note',
      decision: 'user-approval',
      reason: 'the call changes data (approval: "writes")',
      request: {
        method: 'POST',
        url: notes.url('/users/u-1/notes'),
        headers: { Authorization: 'Bearer [redacted]' },
        body: { title: 'Call mum', pinned: true },
      },
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Plain JSON: it survives storage as it is.
    expect(JSON.parse(JSON.stringify(review))).toEqual(review);
    expect(JSON.stringify(review)).not.toContain(NOTES_TOKEN);
    expect(toolRequests()).toEqual([]);
  });

  it('approve → exactly the previewed request reaches the server, once, and the model reads its result', async () => {
    script(calls(['call_1', 'create_note', { title: 'Call mum', text: null, pinned: true }]), says('Noted.'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'note: call mum', { context: { userId: 'u-1' } });
    const review = await rcp.review(paused.interruptions[0]!);
    await rcp.approve(paused.state, review);
    const done = await runner().run(agent, paused.state);
    expect(done.finalOutput).toBe('Noted.');
    const [received, ...more] = toolRequestsOnly();
    expect(more).toEqual([]);
    expect(notes.origin + received!.url).toBe(review.request.url);
    expect(received!.method).toBe(review.request.method);
    expect(received!.json).toEqual(review.request.body);
    for (const [name, value] of Object.entries(review.request.headers)) {
      expect(received!.headers[name.toLowerCase()]).toBe(value.replace('[redacted]', NOTES_TOKEN));
    }
    expect(sentBack('call_1')).toEqual({ ok: true, data: { id: 'n-2', title: 'Call mum', pinned: true } });
  });

  it("a reject → nothing sent, and the model reads the person's reason as the tool result", async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('I did not delete it.'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1', { context: { userId: 'u-1' } });
    const review = await rcp.review(paused.interruptions[0]!);
    rcp.reject(paused.state, review, { reason: 'the note is still needed' });
    const done = await runner().run(agent, paused.state);
    expect(done.finalOutput).toBe('I did not delete it.');
    expect(sentBack('call_1')).toEqual({ ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: the note is still needed' } });
    expect(toolRequests()).toEqual([]);
  });

  it('a reject without a review (the interruption itself) and without a reason', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1', { context: { userId: 'u-1' } });
    rcp.reject(paused.state, paused.interruptions[0]!);
    await runner().run(agent, paused.state);
    expect(sentBack('call_1')).toEqual({ ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied.' } });
    expect(toolRequests()).toEqual([]);
  });

  it('denied by the policy → no pause, nothing sent, the model reads the reason', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('Deletes are off.'));
    const { agent } = await setUp({ delete_note: { decision: 'denied', reason: 'deletes are off today' } });
    const result = await runner().run(agent, 'delete n-1', { context: { userId: 'u-1' } });
    expect(result.interruptions).toEqual([]);
    expect(sentBack('call_1')).toEqual({ ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: deletes are off today' } });
    expect(toolRequests()).toEqual([]);
  });

  it('approved by the policy (and not-applicable) → runs without a pause', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }], ['call_2', 'get_note', { noteId: 'n-1' }]), says('Done.'));
    const { agent } = await setUp(({ tool }) => (tool.name === 'delete_note' ? 'approved' : 'not-applicable'));
    const result = await runner().run(agent, 'read then delete n-1', { context: { userId: 'u-1' } });
    expect(result.interruptions).toEqual([]);
    expect(toolRequests().sort()).toEqual(['DELETE /users/u-1/notes/n-1', 'GET /users/u-1/notes/n-1']);
  });

  it('state.approve alone (no reviewed request) sends nothing: the model reads RCP_APPROVAL_REQUIRED', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const { agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1', { context: { userId: 'u-1' } });
    paused.state.approve(paused.interruptions[0]!);
    await runner().run(agent, paused.state);
    expect(sentBack('call_1')).toEqual({
      ok: false,
      error: { code: 'RCP_APPROVAL_REQUIRED', message: "The call is waiting for a person's approval; it was not made." },
    });
    expect(toolRequests()).toEqual([]);
  });
});

describe('an approval replayed for anything else than the reviewed request is refused, nothing sent', () => {
  const MISMATCH = { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } };

  /** Runs until the delete of n-1 pauses, and reviews it. */
  async function pausedDelete() {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const setup = await setUp('writes');
    const paused = await runner().run(setup.agent, 'delete n-1', { context: { userId: 'u-1' } });
    const review = await setup.rcp.review(paused.interruptions[0]!);
    return { ...setup, saved: paused.state.toString(), review };
  }

  it('changed arguments: the stored run state edited to another note', async () => {
    const { rcp, agent, saved, review } = await pausedDelete();
    const edited = saved.replaceAll('\\"noteId\\":\\"n-1\\"', '\\"noteId\\":\\"n-2\\"');
    expect(edited).not.toBe(saved);
    const state = await RunState.fromString(agent, edited);
    expect(state.getInterruptions()[0]!.arguments).toBe('{"noteId":"n-2"}');
    await rcp.approve(state, review);
    await runner().run(agent, state);
    expect(sentBack('call_1')).toEqual(MISMATCH);
    expect(toolRequests()).toEqual([]);
  });

  it("changed arguments: one call's review given for another call", async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }], ['call_2', 'delete_note', { noteId: 'n-9' }]), says('ok'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1 and n-9', { context: { userId: 'u-1' } });
    expect(paused.interruptions).toHaveLength(2);
    const first = await rcp.review(paused.interruptions[0]!);
    await expect(rcp.approve(paused.state, { ...first, callId: 'call_2' })).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    expect(paused.state.getInterruptions()).toHaveLength(2);
    expect(toolRequests()).toEqual([]);
  });

  it('a changed resolver value: resumed with another user in the context', async () => {
    const { rcp, agent, saved, review } = await pausedDelete();
    const state = await RunState.fromStringWithContext(agent, saved, new RunContext<Ctx>({ userId: 'u-2' }));
    await rcp.approve(state, review);
    await runner().run(agent, state);
    expect(sentBack('call_1')).toEqual(MISMATCH);
    expect(toolRequests()).toEqual([]);
  });

  it('a second call: the same stored state and review resumed again is refused (the client took the approval)', async () => {
    const { rcp, agent, saved, review } = await pausedDelete();
    const once = await RunState.fromString(agent, saved);
    await rcp.approve(once, review);
    await runner().run(agent, once);
    expect(sentBack('call_1')).toEqual({ ok: true, data: null });
    const again = await RunState.fromString(agent, saved);
    script(says('ok')); // the second resume asks the model once more
    await rcp.approve(again, review);
    await runner().run(agent, again);
    expect(sentBack('call_1')).toEqual(MISMATCH);
    expect(toolRequests()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('a second call: one approval given for two identical calls sends one request', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }], ['call_2', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1 twice', { context: { userId: 'u-1' } });
    const review = await rcp.review(paused.interruptions[0]!);
    await rcp.approve(paused.state, review);
    // Its review is call_1's kept one, not call_2's: refused before the run.
    await expect(rcp.approve(paused.state, { ...review, callId: 'call_2' })).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    rcp.reject(paused.state, paused.interruptions[1]!);
    await runner().run(agent, paused.state);
    expect(sentBack('call_1')).toEqual({ ok: true, data: null });
    expect(toolRequests()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });
});

describe('durable: a paused run resumed from its serialised RunState by a new client sharing the ledger', () => {
  it("binds to the kept review's digest, not to memory: exactly the reviewed request is sent", async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('Deleted.'));
    const approvalLedger = createMemoryApprovalLedger();
    // Process A pauses and stores the state as text; its client keeps the review in the shared ledger.
    const a = await setUp('writes', {}, approvalLedger);
    const paused = await runner().run(a.agent, 'delete n-1', { context: { userId: 'u-1' } });
    const stored = paused.state.toString();
    expect(toolRequests()).toEqual([]);
    // Process B: a new client, new tools, a new agent; nothing of A but the text and the ledger.
    const b = await setUp('writes', {}, approvalLedger);
    const state = await RunState.fromString(b.agent, stored);
    const review = await b.rcp.review(state.getInterruptions()[0]!);
    expect(review.request.url).toBe(notes.url('/users/u-1/notes/n-1'));
    await b.rcp.approve(state, JSON.parse(JSON.stringify(review)) as OpenAIAgentsApprovalRequest);
    const done = await runner().run(b.agent, state);
    expect(done.finalOutput).toBe('Deleted.');
    expect(toolRequests()).toEqual(['DELETE /users/u-1/notes/n-1']);
    expect(sentBack('call_1')).toEqual({ ok: true, data: null });
  });
});

describe('stages', () => {
  it("a call outside the turn's stage: the model reads RCP_TOOL_NOT_IN_STAGE, no pause, nothing sent", async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const { agent } = await setUp('writes', {
      stages: { browse: ['list_notes', 'get_note'] },
      turn: (context) => context as OpenAIAgentsTurn<Ctx>,
    });
    const result = await runner().run(agent, 'delete n-1', { context: { ctx: { userId: 'u-1' }, stage: 'browse' } });
    expect(result.interruptions).toEqual([]);
    expect(sentBack('call_1')).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "delete_note" is not available in stage "browse".' },
    });
    expect(toolRequests()).toEqual([]);
  });

  it('a stage the tool set does not define lets nothing through', async () => {
    script(calls(['call_1', 'list_notes', { tag: null }]), says('ok'));
    const { agent } = await setUp(undefined, { stages: { browse: ['list_notes'] }, turn: (context) => context as OpenAIAgentsTurn<Ctx> });
    await runner().run(agent, 'list', { context: { ctx: { userId: 'u-1' }, stage: 'nope' } });
    expect(sentBack('call_1')).toMatchObject({ ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE' } });
    expect(toolRequests()).toEqual([]);
  });

  it('stageTools(stage) gives an agent of that stage only its tools; an unknown stage is RCP_INVALID_OPTIONS', async () => {
    script(calls(['call_1', 'list_notes', { tag: 'home' }]), says('ok'));
    const { rcp } = await setUp(undefined, { stages: { browse: ['list_notes', 'get_note'] } });
    const browser = new Agent({ name: 'Browser', model: 'gpt-test', tools: rcp.stageTools('browse') });
    await runner().run(browser, 'list', { context: { userId: 'u-1' } });
    expect(fake.requests[0]!.toolNames).toEqual(['list_notes', 'get_note']);
    expect(toolRequests()).toEqual(['GET /users/u-1/notes']);
    // A new list on every read, of the same tools (an agent may add its own to it).
    expect(rcp.stageTools('browse')).not.toBe(rcp.stageTools('browse'));
    expect(rcp.stageTools('browse')[0]).toBe(rcp.stageTools('browse')[0]);
    expect(rcp.tools[0]).toBe(rcp.tools[0]);
    expect(rcp.stageTools('browse')[0]).not.toBe(rcp.tools[0]);
    expect(() => rcp.stageTools('act')).toThrow(
      expect.objectContaining({ code: 'RCP_INVALID_OPTIONS', message: 'No stage "act" in this tool set (its stages: browse)' }),
    );
  });
});

describe('typed errors, before anything is sent', () => {
  it('approve() and reject() take a review or an interruption of this state; review() a function call of these tools', async () => {
    script(calls(['call_1', 'delete_note', { noteId: 'n-1' }]), says('ok'));
    const { rcp, agent } = await setUp('writes');
    const paused = await runner().run(agent, 'delete n-1', { context: { userId: 'u-1' } });
    const review = await rcp.review(paused.interruptions[0]!);
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return isRcpError(error) ? error.code : error;
      }
      return 'no error';
    };
    await expect(rcp.approve(paused.state, {} as OpenAIAgentsApprovalRequest)).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    await expect(rcp.approve(paused.state, { ...review, callId: 'call_9' })).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    await expect(rcp.approve(paused.state, { ...review, tool: 'get_note' })).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    await expect(rcp.approve({} as never, review)).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    expect(code(() => rcp.reject(paused.state, { callId: 42 } as never))).toBe('RCP_INVALID_OPTIONS');
    expect(code(() => rcp.reject(paused.state, review, { reason: 7 as never }))).toBe('RCP_INVALID_OPTIONS');
    await expect(rcp.review({ rawItem: { type: 'hosted_tool_call' } } as never)).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    // A call that paused with no review kept for it (another ledger): refused, never reviewed again.
    const other = await setUp('writes');
    await expect(other.rcp.review(paused.interruptions[0]!)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    expect(toolRequests()).toEqual([]);
  });
});

describe("issue 39's repros: a stateless app (a new client and tool set per request)", () => {
  const MISMATCH = { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } };

  /** Request 1 pauses on deleting `noteId`; the app keeps the run state as text (and the review it showed). */
  async function pausedRequest(noteId: string, approvalLedger?: RcpApprovalLedger) {
    script(calls(['call_1', 'delete_note', { noteId }]), says('Deleted.'));
    const first = await setUp('writes', {}, approvalLedger);
    const paused = await runner().run(first.agent, `delete ${noteId}`, { context: { userId: 'u-1' } });
    const shown = await first.rcp.review(paused.interruptions[0]!);
    expect(toolRequests()).toEqual([]);
    return { saved: paused.state.toString(), shown };
  }

  it('(a) a tampered run state resumed with the in-memory default: no kept review, refused — never reviewed again, nothing sent', async () => {
    const { saved, shown } = await pausedRequest('n-1');
    const next = await setUp('writes');
    const state = await RunState.fromString(next.agent, saved.replaceAll('\\"noteId\\":\\"n-1\\"', '\\"noteId\\":\\"n-2\\"'));
    await expect(next.rcp.review(state.getInterruptions()[0]!)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    await expect(next.rcp.approve(state, shown)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    state.approve(state.getInterruptions()[0]!);
    await runner().run(next.agent, state);
    expect(sentBack('call_1')).toMatchObject({ ok: false });
    expect(toolRequests()).toEqual([]);
  });

  it('(a) a tampered run state with a shared ledger: the kept review shows the original; the edited call is refused, nothing sent', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const { saved } = await pausedRequest('n-1', approvalLedger);
    const next = await setUp('writes', {}, approvalLedger);
    const state = await RunState.fromString(next.agent, saved.replaceAll('\\"noteId\\":\\"n-1\\"', '\\"noteId\\":\\"n-2\\"'));
    const review = await next.rcp.review(state.getInterruptions()[0]!);
    expect(review.request.url).toBe(notes.url('/users/u-1/notes/n-1'));
    await next.rcp.approve(state, review);
    await runner().run(next.agent, state);
    expect(sentBack('call_1')).toEqual(MISMATCH);
    expect(toolRequests()).toEqual([]);
  });

  it('(b) a replayed yes with the shared ledger: the second resume is refused — the API received one write', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const { saved, shown } = await pausedRequest('n-1', approvalLedger);
    script(says('ok')); // each of the two resumes asks the model once: one answer more than pausedRequest scripted
    for (let request = 0; request < 2; request++) {
      const next = await setUp('writes', {}, approvalLedger);
      const state = await RunState.fromString(next.agent, saved);
      await next.rcp.approve(state, shown);
      await runner().run(next.agent, state);
      expect(sentBack('call_1')).toEqual(request === 0 ? { ok: true, data: null } : MISMATCH);
    }
    expect(toolRequests()).toEqual(['DELETE /users/u-1/notes/n-1']);
  });

  it('(c) a review edited where it is kept (the ledger, or the JSON the app kept): refused when shown or approved, nothing sent', async () => {
    const ledger = createMemoryApprovalLedger();
    const { saved, shown } = await pausedRequest('n-2', ledger);
    // The app's copy edited to show n-1 while the call deletes n-2.
    const next = await setUp('writes', {}, ledger);
    const state = await RunState.fromString(next.agent, saved);
    const edited = { ...shown, request: { ...shown.request, url: shown.request.url.replace('n-2', 'n-1') } };
    await expect(next.rcp.approve(state, edited)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    // The ledger's copy edited the same way.
    const kept = (await ledger.load('call_1'))!;
    await ledger.save('call_1', { ...kept, request: { ...kept.request, url: kept.request.url.replace('n-2', 'n-1') } }, 60_000);
    await expect(next.rcp.review(state.getInterruptions()[0]!)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    await expect(next.rcp.approve(state, shown)).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    expect(toolRequests()).toEqual([]);
  });
});
