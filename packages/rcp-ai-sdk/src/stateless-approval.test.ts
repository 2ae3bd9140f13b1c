/**
 * Issue 39's three repros on AI SDK 6, as a stateless chat route runs them (a Next.js route
 * handler): every request builds a fresh client and tool set, and the history is the one the
 * browser sends back. The real `generateText` with the AI SDK's own mock model; the notes API on
 * 127.0.0.1 records what it received.
 */
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryApprovalLedger, createRcpClient, type RcpApprovalLedger } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createAISDKTools } from './index';

let notes: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await notes.close();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const createCall = (input: unknown) => ({
  content: [{ type: 'tool-call' as const, toolCallId: 'call_1', toolName: 'create_note', input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const done = {
  content: [{ type: 'text' as const, text: 'Done.' }],
  finishReason: { unified: 'stop' as const, raw: undefined },
  usage,
  warnings: [],
};

/**
 * One request to the chat route: a fresh client (the app's approval secret, and the shared
 * ledger when the app configures one) and a fresh tool set, then `generateText` on the history.
 */
async function chatRoute(messages: ModelMessage[], approvalLedger?: RcpApprovalLedger) {
  const client = createRcpClient({
    resolvers: { userId: (ctx: { userId: string }) => ctx.userId },
    credentials: () => NOTES_TOKEN,
    approval: 'writes',
    approvalSecret: 'the notes app approval secret, 32+ bytes',
    ...(approvalLedger !== undefined && { approvalLedger }),
  });
  const rcp = createAISDKTools(client, await client.discover(manifestUrl));
  // The model asks for the note on the first request; on a resumed one it only answers.
  const model = new MockLanguageModelV3({ doGenerate: messages.length === 1 ? [createCall({ title: 'Milk', pinned: true }), done] : [done] });
  const result = await generateText({ model, tools: rcp.tools, messages, stopWhen: stepCountIs(3), experimental_context: { userId: 'u-1' } });
  return { rcp, result };
}

const prompt: ModelMessage[] = [{ role: 'user', content: 'Add a note "Milk".' }];

/** The first request pauses on create_note; the history the browser keeps, with the person's yes. */
async function pausedThenApproved(approvalLedger?: RcpApprovalLedger) {
  const { result } = await chatRoute(prompt, approvalLedger);
  const request = result.content.find((part) => part.type === 'tool-approval-request');
  if (request?.type !== 'tool-approval-request') throw new Error('the call did not pause');
  expect(toolRequestLines(notes)).toEqual([]);
  return [
    ...prompt,
    ...result.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] },
  ] satisfies ModelMessage[] as ModelMessage[];
}

/** The history with the approved call's input edited (the browser holds it). */
function tampered(messages: ModelMessage[]): ModelMessage[] {
  return messages.map((message) =>
    message.role === 'assistant' && Array.isArray(message.content)
      ? { ...message, content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, input: { title: 'Pay Mallory', pinned: true } } : part)) }
      : message,
  );
}

/** The result the model is given for the resumed call. */
function resumedResult(result: { readonly response: { readonly messages: readonly ModelMessage[] } }) {
  const part = result.response.messages.flatMap((message) => (message.role === 'tool' ? message.content : [])).find((item) => item.type === 'tool-result');
  const output = part?.output;
  return output?.type === 'text' || output?.type === 'error-text' ? (JSON.parse(output.value) as unknown) : output;
}

const MISMATCH = { ok: false, error: { code: 'RCP_APPROVAL_MISMATCH', message: 'The approval does not cover this call; it was not made.' } };

describe('repro (a): a stateless route with a tampered history', () => {
  it('the in-memory default: the resumed call finds no kept review and is refused, never reviewed again — nothing sent', async () => {
    const approved = await pausedThenApproved();
    const { result } = await chatRoute(tampered(approved));
    expect(resumedResult(result)).toEqual(MISMATCH);
    // Untampered too: without a shared ledger a resume cannot be verified, so it fails closed.
    const untampered = await chatRoute(approved);
    expect(resumedResult(untampered.result)).toEqual(MISMATCH);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('a shared ledger: the tampered call does not match the kept review — refused, nothing sent', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const approved = await pausedThenApproved(approvalLedger);
    const { result } = await chatRoute(tampered(approved), approvalLedger);
    expect(resumedResult(result)).toEqual(MISMATCH);
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

describe('repro (b): a replayed "yes" with the shared ledger', () => {
  it('the first resume writes once; the same history replayed is refused — the API received one write', async () => {
    const approvalLedger = createMemoryApprovalLedger();
    const approved = await pausedThenApproved(approvalLedger);
    const first = await chatRoute(approved, approvalLedger);
    expect(resumedResult(first.result)).toMatchObject({ ok: true });
    const replay = await chatRoute(approved, approvalLedger);
    expect(resumedResult(replay.result)).toEqual(MISMATCH);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
  });
});

describe('repro (c): a review edited where it is kept', () => {
  it('shown: refused (RCP_APPROVAL_MISMATCH); resumed: refused — nothing sent', async () => {
    const kept = createMemoryApprovalLedger();
    const approved = await pausedThenApproved(kept);
    // Whoever can write the ledger edits what the person will be shown.
    const review = (await kept.load('call_1'))!;
    await kept.save('call_1', { ...review, request: { ...review.request, body: { title: 'Milk (edited)', pinned: true } } }, 60_000);
    const { rcp, result } = await chatRoute(approved, kept);
    await expect(rcp.review('call_1')).rejects.toMatchObject({ code: 'RCP_APPROVAL_MISMATCH' });
    expect(resumedResult(result)).toEqual(MISMATCH);
    expect(toolRequestLines(notes)).toEqual([]);
  });
});
