import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware } from 'langchain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryApprovalLedger, createRcpClient, isRcpError, type RcpApprovalLedger, type RcpApprovalPolicy } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createLangChainApprovals, type LangChainApprovalsOptions } from './index';

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await notes.close();
});

type Ctx = { userId?: string };
const notesClient = (approval: RcpApprovalPolicy<Ctx> = 'writes', approvalLedger?: RcpApprovalLedger) =>
  // Every client of these tests holds the operator's approval secret, as the processes of one app do.
  createRcpClient({
    ...(approvalLedger !== undefined && { approvalLedger }),
    resolvers: { userId: (ctx: Ctx) => ctx.userId },
    credentials: () => NOTES_TOKEN,
    approval,
    approvalSecret: 'the notes app approval secret, 32+ bytes',
  });
const toolRequests = () => toolRequestLines(notes);
const createMilk = { title: 'Milk', pinned: true };
const config = { configurable: { thread_id: 't-1', userId: 'u-1' } };

type Messages = { messages: unknown[]; __interrupt__?: { value: { actionRequests: { name: string; args: unknown; description: string }[] } }[] };
/** The tool messages of a run, their content parsed (`toModelResult`'s JSON for an RCP tool). */
const toolResults = (state: Messages) =>
  state.messages
    .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
    .map((message) => ({
      status: message.status,
      content: (() => {
        try {
          return JSON.parse(message.content as string) as unknown;
        } catch {
          return message.content;
        }
      })(),
    }));

/** An agent with the middleware, a checkpointer and a scripted model; its first run pauses. */
async function pausedRun(
  { client = notesClient(), options = {}, checkpointer = new MemorySaver(), call = ['create_note', createMilk] as [string, object] } = {} as {
    client?: ReturnType<typeof notesClient>;
    options?: LangChainApprovalsOptions<Ctx>;
    checkpointer?: MemorySaver;
    call?: [string, object];
  },
) {
  const approvals = createLangChainApprovals(client, await client.discover(manifestUrl), options);
  const model = fakeModel()
    .respondWithTools([{ name: call[0], args: call[1], id: 'c1' }])
    .respond(new AIMessage('Done.'));
  const agent = createAgent({
    model,
    tools: approvals.tools,
    checkpointer,
    middleware: [humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn })],
  });
  const first = (await agent.invoke({ messages: [new HumanMessage('Add a note "Milk".')] }, config)) as unknown as Messages;
  const resume = async (decision: unknown, runConfig: typeof config = config) =>
    (await agent.invoke(new Command({ resume: { decisions: [decision] } }), runConfig)) as unknown as Messages;
  return { approvals, agent, model, first, resume };
}

/** Another process resumes the run: a new client (and its tools, middleware and agent), the same checkpointer. */
async function resumedElsewhere(client: ReturnType<typeof notesClient>, checkpointer: MemorySaver, decision: unknown = { type: 'approve' }) {
  const approvals = createLangChainApprovals(client, await client.discover(manifestUrl));
  const agent = createAgent({
    model: fakeModel().respond(new AIMessage('Done.')),
    tools: approvals.tools,
    checkpointer,
    middleware: [humanInTheLoopMiddleware({ interruptOn: approvals.interruptOn })],
  });
  const done = (await agent.invoke(new Command({ resume: { decisions: [decision] } }), config)) as unknown as Messages;
  return { approvals, agent, done };
}

describe('interruptOn from the client policy (humanInTheLoopMiddleware)', () => {
  it('interrupts a user-approval call with nothing sent, showing the exact request (credential redacted)', async () => {
    const { approvals, first } = await pausedRun();
    expect(toolRequests()).toEqual([]);
    const [action] = first.__interrupt__![0]!.value.actionRequests;
    expect(action).toMatchObject({ name: 'create_note', args: createMilk });
    expect(action!.description).toBe(
      [
        'Approval needed: the call changes data (approval: "writes")',
        '',
        `POST ${notes.url('/users/u-1/notes')}`,
        'content-type: application/json',
        'Authorization: Bearer [redacted]',
        '',
        '{\n  "title": "Milk",\n  "pinned": true\n}',
      ].join('\n'),
    );
    const pending = await approvals.pending(first);
    expect(pending).toEqual([{ id: 'c1', name: 'create_note', args: createMilk, review: await approvals.review('c1') }]);
    expect(pending[0]!.review).toMatchObject({ decision: 'user-approval', request: { method: 'POST', body: createMilk } });
    expect(JSON.stringify([first.__interrupt__, pending])).not.toContain(NOTES_TOKEN);
  });

  it('the config: every tool, edit only where there is a param to edit, the model-facing schema', async () => {
    const client = notesClient();
    const { interruptOn } = createLangChainApprovals(client, await client.discover(manifestUrl));
    expect(Object.keys(interruptOn)).toEqual(['list_notes', 'get_note', 'create_note', 'delete_note']);
    expect(interruptOn.delete_note!.allowedDecisions).toEqual(['approve', 'edit', 'reject']);
    expect(JSON.stringify(interruptOn.create_note!.argsSchema)).not.toContain('userId');
  });

  it('approve: exactly the previewed request reaches the server, and the model reads the result', async () => {
    const { approvals, model, resume } = await pausedRun();
    const review = (await approvals.review('c1'))!;
    const done = await resume({ type: 'approve' });
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
    const sent = notes.requests.at(-1)!;
    expect(sent.method).toBe(review.request.method);
    expect(notes.url(sent.url)).toBe(review.request.url);
    expect(sent.json).toEqual(review.request.body);
    expect(sent.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
    expect(toolResults(done)).toEqual([{ status: 'success', content: { ok: true, data: { id: 'n-2', ...createMilk } } }]);
    expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('"id\\":\\"n-2\\"');
  });

  it('reject: nothing is sent and the model reads the reason', async () => {
    const { model, resume } = await pausedRun();
    const done = await resume({ type: 'reject', message: 'Not today.' });
    expect(toolRequests()).toEqual([]);
    expect(toolResults(done)).toEqual([{ status: 'error', content: 'Not today.' }]);
    expect(JSON.stringify(model.calls.at(-1)!.messages)).toContain('Not today.');
  });

  it('a denied policy decision: no interrupt, nothing sent, the model reads the reason', async () => {
    const client = notesClient({ delete_note: { decision: 'denied', reason: 'deletes are off today' } });
    const { first, approvals } = await pausedRun({ client, call: ['delete_note', { noteId: 'n-1' }] });
    expect(first.__interrupt__).toBeUndefined();
    expect(toolResults(first)).toEqual([
      { status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_DENIED', message: 'The call was denied: deletes are off today' } } },
    ]);
    expect(toolRequests()).toEqual([]);
    expect(await approvals.review('c1')).toBeUndefined();
  });

  it('a call that needs no approval is not interrupted and runs', async () => {
    const { first } = await pausedRun({ call: ['get_note', { noteId: 'n-1' }] });
    expect(first.__interrupt__).toBeUndefined();
    expect(toolRequests()).toEqual(['GET /users/u-1/notes/n-1']);
  });
});

describe('edits', () => {
  it('an edit of a resolver-bound param is refused: by edit() before anything, by the tool when resumed directly', async () => {
    const { approvals, first, resume } = await pausedRun();
    const [pending] = await approvals.pending(first);
    const before = await approvals.review('c1');
    const refused = await approvals.edit(pending!, { ...createMilk, userId: 'u-7' }, config.configurable).catch((error: unknown) => error);
    expect(isRcpError(refused, 'RCP_INVALID_ARGUMENTS')).toBe(true);
    expect(String((refused as Error).message)).toContain('/userId is not a parameter of this tool');
    expect(await approvals.review('c1')).toEqual(before);
    // Resumed with the edit anyway: the client's argument rule refuses it (and the approval would not cover it).
    const done = await resume({ type: 'edit', editedAction: { name: 'create_note', args: { ...createMilk, userId: 'u-7' } } });
    expect(toolResults(done)).toMatchObject([{ status: 'error', content: { ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } } }]);
    expect(toolRequests()).toEqual([]);
  });

  it('an edit of a model param is validated and reviewed again: the new request (a new digest) is what is sent', async () => {
    const { approvals, first, resume } = await pausedRun();
    const [pending] = await approvals.pending(first);
    const before = (await approvals.review('c1'))!;
    const bad = await approvals.edit(pending!, { title: 42 }, config.configurable).catch((error: unknown) => error);
    expect(isRcpError(bad, 'RCP_INVALID_ARGUMENTS')).toBe(true);
    const { review, decision } = await approvals.edit(pending!, { title: 'Oat milk', pinned: true }, config.configurable);
    expect(review.digest).not.toBe(before.digest);
    expect(review.request).toMatchObject({ method: 'POST', url: notes.url('/users/u-1/notes'), body: { title: 'Oat milk', pinned: true } });
    expect(await approvals.review('c1')).toEqual(review);
    expect(decision).toEqual({ type: 'edit', editedAction: { name: 'create_note', args: { title: 'Oat milk', pinned: true } } });
    expect(toolRequests()).toEqual([]);
    const done = await resume(decision);
    expect(toolResults(done)).toMatchObject([{ status: 'success', content: { ok: true } }]);
    expect(notes.requests.at(-1)!.json).toEqual(review.request.body);
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });
});

describe('an approval is bound to the reviewed request', () => {
  it('resumed with other arguments than reviewed (an edit past edit()): RCP_APPROVAL_MISMATCH, nothing sent', async () => {
    const { resume } = await pausedRun();
    const done = await resume({ type: 'edit', editedAction: { name: 'create_note', args: { title: 'Rent' } } });
    expect(toolResults(done)).toEqual([
      { status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } } },
    ]);
    expect(toolRequests()).toEqual([]);
  });

  it('resumed with a changed resolver value (another user): refused, nothing sent', async () => {
    const { resume } = await pausedRun();
    const done = await resume({ type: 'approve' }, { configurable: { ...config.configurable, userId: 'u-2' } });
    expect(toolResults(done)).toMatchObject([{ status: 'error', content: { error: { code: 'RCP_APPROVAL_MISMATCH' } } }]);
    expect(toolRequests()).toEqual([]);
  });

  it('replayed for a second call: refused, the server received one request', async () => {
    const { approvals, resume } = await pausedRun();
    await resume({ type: 'approve' });
    const createNote = approvals.tools.find((tool) => tool.name === 'create_note')!;
    const again = (await createNote.invoke({ name: 'create_note', args: createMilk, id: 'c1', type: 'tool_call' }, config)) as ToolMessage;
    expect(JSON.parse(again.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } });
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });

  it('resumed in another process (a new client and agent, the same checkpointer and approval ledger): sent as reviewed', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const checkpointer = new MemorySaver();
    await pausedRun({ client: notesClient('writes', approvalLedger), checkpointer });
    const { done } = await resumedElsewhere(notesClient('writes', approvalLedger), checkpointer);
    expect(toolResults(done)).toMatchObject([{ status: 'success', content: { ok: true } }]);
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });
});

describe("issue 39's repros: resumed by another process (a new client and agent per request)", () => {
  /** A copy of a checkpointer as it is now: the saved history, to be replayed or edited. */
  function copyOf(checkpointer: MemorySaver, edit: (text: string) => string = (text) => text): MemorySaver {
    const copy = new MemorySaver();
    const recode = (value: unknown): unknown =>
      value instanceof Uint8Array
        ? new TextEncoder().encode(edit(new TextDecoder().decode(value)))
        : Array.isArray(value)
          ? value.map(recode)
          : typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, recode(inner)]))
            : value;
    copy.storage = recode(checkpointer.storage) as MemorySaver['storage'];
    copy.writes = recode(checkpointer.writes) as MemorySaver['writes'];
    return copy;
  }

  it('(a) a tampered checkpoint resumed with the in-memory default: no kept review, never reviewed again — nothing sent', async () => {
    const checkpointer = new MemorySaver();
    await pausedRun({ checkpointer });
    const tampered = copyOf(checkpointer, (text) => text.replaceAll('"Milk"', '"Pay Mallory"'));
    for (const history of [tampered, copyOf(checkpointer)]) {
      const { done, approvals } = await resumedElsewhere(notesClient(), history);
      expect(toolResults(done)).toMatchObject([{ status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_REQUIRED' } } }]);
      expect(await approvals.review('c1')).toBeUndefined();
    }
    expect(toolRequests()).toEqual([]);
  });

  it('(a) a tampered checkpoint with a shared ledger: the kept review does not cover it — refused, nothing sent', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const checkpointer = new MemorySaver();
    await pausedRun({ client: notesClient('writes', approvalLedger), checkpointer });
    const tampered = copyOf(checkpointer, (text) => text.replaceAll('"Milk"', '"Pay Mallory"'));
    const { done } = await resumedElsewhere(notesClient('writes', approvalLedger), tampered);
    expect(toolResults(done)).toMatchObject([{ status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } } }]);
    expect(toolRequests()).toEqual([]);
  });

  it('(b) a replayed yes with the shared ledger (the saved history resumed twice): one write', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const checkpointer = new MemorySaver();
    await pausedRun({ client: notesClient('writes', approvalLedger), checkpointer });
    const saved = copyOf(checkpointer);
    const first = await resumedElsewhere(notesClient('writes', approvalLedger), checkpointer);
    expect(toolResults(first.done)).toMatchObject([{ status: 'success', content: { ok: true } }]);
    const replay = await resumedElsewhere(notesClient('writes', approvalLedger), saved);
    expect(toolResults(replay.done)).toMatchObject([{ status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } } }]);
    expect(toolRequests()).toEqual(['POST /users/u-1/notes']);
  });

  it('(c) a review edited where it is kept: refused when shown and when resumed — nothing sent', async () => {
    const ledger = createMemoryApprovalLedger();
    const checkpointer = new MemorySaver();
    await pausedRun({ client: notesClient('writes', ledger), checkpointer });
    const kept = (await ledger.load('c1'))!;
    await ledger.save('c1', { ...kept, request: { ...kept.request, body: { title: 'Milk', pinned: false } } }, 60_000);
    const { done, approvals } = await resumedElsewhere(notesClient('writes', ledger), checkpointer);
    await expect(approvals.review('c1')).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    expect(toolResults(done)).toMatchObject([{ status: 'error', content: { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH' } } }]);
    expect(toolRequests()).toEqual([]);
  });
});
