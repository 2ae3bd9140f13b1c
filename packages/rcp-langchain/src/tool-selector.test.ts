/**
 * Issue 28 on LangChain: a LangChain v1 agent over a 500-tool API is bound, on each model call,
 * only the tools rcp-search finds for the user's request; a found tool is called through the same
 * tool set (or stage) as any other. The real `createAgent`, its ToolNode and `fakeModel`, against
 * a loopback API whose log is checked.
 */
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, createMiddleware } from 'langchain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, toModelText, type RcpClient, type RcpToolSet } from 'rcp-client';
import { createToolSearch, type RcpToolSearch } from 'rcp-search';
import { largeCatalogManifest, sendJson, serveManifest, startTestServer, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createLangChainToolSelector, type LangChainToolSelectorOptions } from './index';

type Ctx = { userId?: string };
let server: TestServer;
let client: RcpClient<Ctx>;
let toolSet: RcpToolSet;
let search: RcpToolSearch;
beforeAll(async () => {
  server = await startTestServer();
  serveManifest(server, largeCatalogManifest());
  server.route('POST /v1/users/u-1/refunds/create', (request, res) => sendJson(res, 201, { id: 'rf-1', ...(request.json as object) }));
  client = createRcpClient({ resolvers: { userId: (ctx: Ctx) => ctx.userId } });
  toolSet = createToolSet(await client.discover(server.url('/rcp/manifest')));
  search = createToolSearch(toolSet); // the index is built once, for every agent below
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

const ASK = 'Create a refund for my last order, noting the late delivery.';
const REFUND = { id: 'c1', name: 'createRefund', args: { note: 'late delivery' } };

/** An agent with the selector, a recorder of the tools each model call is bound, and a scripted model. */
async function run(call: { id: string; name: string; args: Record<string, unknown> }, options: LangChainToolSelectorOptions<Ctx> = {}) {
  const selector = createLangChainToolSelector(client, search, { limit: 5, ...options });
  const bound: string[][] = [];
  const recorder = createMiddleware({
    name: 'BoundToolsRecorder',
    wrapModelCall: (request, handler) => {
      bound.push((request.tools ?? []).map((tool) => (tool as { name: string }).name));
      return handler(request);
    },
  });
  const model = fakeModel().respondWithTools([call]).respond(new AIMessage('Done.'));
  const agent = createAgent({ model, tools: selector.tools, middleware: [selector.middleware, recorder] });
  const state = await agent.invoke({ messages: [new HumanMessage(ASK)] }, { configurable: { userId: 'u-1' } });
  const [answer] = (state.messages as BaseMessage[]).filter((message): message is ToolMessage => ToolMessage.isInstance(message));
  return { selector, bound, model, answer: answer! };
}

describe('createLangChainToolSelector (createAgent middleware)', () => {
  it("each model call is bound only the found tools; the found tool's call reaches the server exactly", async () => {
    const { selector, bound, answer } = await run(REFUND);
    expect(selector.tools).toHaveLength(500);
    expect(bound).toHaveLength(2);
    for (const names of bound) {
      expect(names.length).toBeLessThanOrEqual(5);
      expect(names).toContain('createRefund');
    }
    // The hits, in the tool set's order.
    expect([...bound[0]!].sort()).toEqual((await search.search(ASK, { limit: 5 })).map((hit) => hit.name).sort());
    expect(answer).toMatchObject({ status: 'success', name: 'createRefund' });
    expect(JSON.parse(answer.content as string)).toEqual({ ok: true, data: { id: 'rf-1', note: 'late delivery' } });
    expect(toolRequestLines(server)).toEqual(['POST /v1/users/u-1/refunds/create']);
    expect(server.requests.at(-1)!.json).toEqual({ note: 'late delivery' });
  });

  it('a found tool outside the stage is refused by the client (RCP_TOOL_NOT_IN_STAGE): the model reads it, nothing sent', async () => {
    const read = toolSet.select((tool) => tool.method === 'GET', { stage: 'read' });
    const { bound, answer } = await run(REFUND, { stage: read });
    expect(bound[0]).toContain('createRefund'); // found in the searched set, bound, called ...
    expect(answer.status).toBe('error');
    expect(answer.content).toBe(
      toModelText({ ok: false, error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "createRefund" is not available in stage "read".' } }),
    );
    expect(toolRequestLines(server)).toEqual([]);
  });

  it('a spoofed resolver-bound param through a found tool is RCP_INVALID_ARGUMENTS, nothing sent', async () => {
    const { answer } = await run({ ...REFUND, args: { note: 'late delivery', userId: 'u-7' } });
    expect(answer.status).toBe('error');
    expect(JSON.parse(answer.content as string)).toMatchObject({
      ok: false,
      error: { code: 'RCP_INVALID_ARGUMENTS', message: expect.stringContaining('/userId is not a parameter of this tool') },
    });
    expect(toolRequestLines(server)).toEqual([]);
  });

  it("keeps the agent's own tools bound; a middleware is what createAgent takes", async () => {
    const selector = createLangChainToolSelector(client, search, { limit: 2 });
    const request = { messages: [new HumanMessage('delete a customer')], tools: [...selector.tools, { name: 'my_own_tool', description: 'Mine.' }] };
    const names = await selector.middleware.wrapModelCall(request, (changed) => changed.tools.map((tool) => tool.name));
    expect(names.slice(0, -1).sort()).toEqual((await search.search('delete a customer', { limit: 2 })).map((hit) => hit.name).sort());
    expect(names.at(-1)).toBe('my_own_tool');
    expect(names).toContain('deleteCustomer');
    expect(toolRequestLines(server)).toEqual([]);
  });
});
