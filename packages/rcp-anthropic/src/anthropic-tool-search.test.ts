/**
 * Deferred loading with client-side tool search (`rcp-anthropic/search`): the real SDK against
 * a loopback fake of the Messages API, a 500-tool catalog served by a loopback API, and a
 * scripted model that searches, then calls what it found.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, type RcpToolSet } from 'rcp-client';
import { largeCatalogManifest, sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createAnthropicToolSearch } from './search';

let api: TestServer;
let fake: TestServer;
let toolSet: RcpToolSet;
const client = createRcpClient<{ userId: string }>({ resolvers: { userId: (ctx) => ctx.userId } });
beforeEach(async () => {
  api = await startTestServer();
  api.route('POST /v1/users/u-verified/refunds/create', (request, res) => sendJson(res, 200, { created: true, note: (request.json as { note: string }).note }));
  fake = await startTestServer();
  toolSet = createToolSet(await client.discover(serveManifest(api, largeCatalogManifest())));
  expect(toolSet.names).toHaveLength(500);
  api.reset();
});
afterEach(async () => {
  await Promise.all([api.close(), fake.close()]);
});

const message = (content: unknown[], stop_reason = 'tool_use') => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
});
type Block = { type: string; tool_name?: string; content?: string | Block[]; is_error?: boolean };
type Sent = { tools: { name: string; defer_loading?: boolean; input_schema: unknown }[]; messages: { role: string; content: string | Block[] }[] };

/**
 * The scripted model: searches for `query`, then calls the first tool the search's
 * tool_reference blocks name with `input`, then ends the turn.
 */
function scriptModel(query: string, input: Record<string, unknown>): void {
  fake.route('POST /v1/messages', (request, res) => {
    const last = (request.json as Sent).messages.at(-1)!;
    if (typeof last.content === 'string')
      return sendJson(res, 200, message([{ type: 'tool_use', id: 'toolu_search', name: 'search_tools', input: { query, limit: 3 } }]));
    const result = (last.content as Block[])[0]!;
    const references = Array.isArray(result.content) ? result.content.filter((block) => block.type === 'tool_reference') : [];
    if (references.length > 0) return sendJson(res, 200, message([{ type: 'tool_use', id: 'toolu_call', name: references[0]!.tool_name, input }]));
    return sendJson(res, 200, message([{ type: 'text', text: 'Done.' }], 'end_turn'));
  });
}

async function runLoop(rcp: ReturnType<typeof createAnthropicToolSearch<{ userId: string }>>): Promise<Anthropic.ToolResultBlockParam[]> {
  const anthropic = new Anthropic({ apiKey: 'sk-ant-test', baseURL: fake.origin, maxRetries: 0 });
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Refund the damaged order.' }];
  const answered: Anthropic.ToolResultBlockParam[] = [];
  for (let step = 0; step < 6; step++) {
    const reply = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages, tools: rcp.tools });
    messages.push({ role: 'assistant', content: reply.content });
    if (reply.stop_reason !== 'tool_use') break;
    const results = await rcp.runToolUses(reply.content, { userId: 'u-verified' });
    answered.push(...results);
    messages.push({ role: 'user', content: results });
  }
  return answered;
}

describe('deferred loading: 500 tools, one loaded search tool, tool_reference answers', () => {
  it('sends every tool with defer_loading and the search tool loaded; the model searches, calls a found tool, and the API receives exactly that call', async () => {
    scriptModel('create a refund', { note: 'damaged on arrival' });
    const rcp = createAnthropicToolSearch(client, toolSet);
    const [search, called] = await runLoop(rcp);
    const sent = fake.requests[0]!.json as Sent;
    expect(sent.tools).toHaveLength(501);
    // tool_reference blocks load whole definitions: the search tool says schemas come with the answer.
    expect(sent.tools[0]).toMatchObject({ name: 'search_tools', description: expect.stringContaining('with their input schemas') });
    expect(sent.tools[0]!.defer_loading).toBeUndefined();
    expect(sent.tools.slice(1).every((tool) => tool.defer_loading === true)).toBe(true);
    expect(JSON.stringify(sent.tools)).not.toContain('userId');
    // The search's answer, as the SDK sent it: tool_reference blocks naming tools of the set.
    const sentSearch = ((fake.requests[1]!.json as Sent).messages.at(-1)!.content as Block[])[0]!;
    expect(sentSearch.content).toEqual(search!.content);
    expect((search!.content as Block[]).map((block) => block.type)).toEqual(['tool_reference', 'tool_reference', 'tool_reference']);
    expect((search!.content as Block[])[0]).toEqual({ type: 'tool_reference', tool_name: 'createRefund' });
    expect(called).toMatchObject({ tool_use_id: 'toolu_call', is_error: false });
    expect(api.requests.map((request) => [request.method, request.path, request.json])).toEqual([
      ['POST', '/v1/users/u-verified/refunds/create', { note: 'damaged on arrival' }],
    ]);
  });

  it('a found tool outside the stage is refused (RCP_TOOL_NOT_IN_STAGE) and nothing is sent', async () => {
    // The search ran over the whole catalog in an earlier stage; this stage keeps two tools.
    const whole = createAnthropicToolSearch(client, toolSet);
    const stage = createAnthropicToolSearch(client, toolSet.select(['listCustomer', 'getCustomer'], { stage: 'support' }));
    const [search] = await whole.runToolUses([{ type: 'tool_use', id: 'toolu_search', name: 'search_tools', input: { query: 'create a refund' } }], {
      userId: 'u-verified',
    });
    const found = (search!.content as Block[])[0]!.tool_name!;
    const [refused] = await stage.runToolUses([{ type: 'tool_use', id: 'toolu_call', name: found, input: { note: 'x' } }], { userId: 'u-verified' });
    expect(refused!.is_error).toBe(true);
    expect(JSON.parse(refused!.content as string)).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: `Tool "${found}" is not available in stage "support".` },
    });
    expect(stage.tools.map((tool) => tool.name)).toEqual(['search_tools', 'listCustomer', 'getCustomer']);
    expect(api.requests).toEqual([]);
  });

  it('a spoofed resolver-bound argument through a found tool is refused and nothing is sent', async () => {
    scriptModel('create a refund', { note: 'x', userId: 'u-victim' });
    const rcp = createAnthropicToolSearch(client, toolSet);
    const [, called] = await runLoop(rcp);
    expect(called!.is_error).toBe(true);
    expect(JSON.parse(called!.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(JSON.stringify(called)).not.toContain('u-verified');
    expect(api.requests).toEqual([]);
  });

  it('bad search input is an is_error result the model reads; no match is an empty list', async () => {
    const rcp = createAnthropicToolSearch(client, toolSet);
    const [bad, none] = await rcp.runToolUses(
      [
        { type: 'tool_use', id: 'toolu_1', name: 'search_tools', input: { q: 'refund' } },
        { type: 'tool_use', id: 'toolu_2', name: 'search_tools', input: { query: 'zzzqqq' } },
      ],
      { userId: 'u-verified' },
    );
    expect(bad!.is_error).toBe(true);
    expect(JSON.parse(bad!.content as string)).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    expect(none).toMatchObject({ is_error: false, content: '{"tools":[]}' });
    expect(api.requests).toEqual([]);
  });

  it('a tool of the set named search_tools is refused when the search is made', async () => {
    const url = serveManifest(
      api,
      { rcpVersion: '0.1', tools: [{ name: 'search_tools', description: 'Clash.', method: 'GET', url: '/x' }] },
      '/clash/manifest',
    );
    const discovery = await client.discover(url);
    expect(() => createAnthropicToolSearch(client, discovery)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });
});
