/**
 * Issue 25: every adapter surfaces the discoveries' warnings the same way — the tool set's
 * `warnings` (rcp-client, one home), in the adapter's own `warnings` beside what only that stack
 * adds (OpenAI's and MCP hosts' tool-count warnings, Gemini's schema caveats), or through the
 * `toolSet` it exposes. No adapter needs a model here: the warnings exist before any call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpRegistry } from 'rcp-agent-core-bridge';
import { createAISDKTools } from 'rcp-ai-sdk';
import { createAnthropicTools } from 'rcp-anthropic';
import { createRcpClient, createToolSet, type RcpDiscovery } from 'rcp-client';
import { createGeminiTools } from 'rcp-gemini';
import { createRcpMcpGateway } from 'rcp-mcp';
import { createOpenAITools } from 'rcp-openai';
import { createOpenAIAgentsTools } from 'rcp-openai-agents';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';

let api: TestServer;
let discovery: RcpDiscovery;
const client = createRcpClient({ onWarning: () => {} });
beforeEach(async () => {
  api = await startTestServer();
  discovery = await client.discover(
    serveManifest(api, {
      rcpVersion: '0.1',
      extra: true,
      tools: [
        { name: 'list_notes', description: 'Lists notes.', method: 'GET', url: '/notes', colour: 'red' },
        { name: 'get_note', description: 'One note.', method: 'GET', url: '/notes/{{noteId}}', params: [{ name: 'noteId' }] },
      ],
    }),
  );
  api.reset();
});
afterEach(async () => {
  await api.close();
});

describe('discovery warnings, the same lines on every stack', () => {
  it('bridge, AI SDK, OpenAI, OpenAI Agents, Anthropic, Gemini and the MCP gateway', () => {
    const expected = ['/extra', '/tools/0/colour'];
    expect(discovery.warnings.map((warning) => warning.path)).toEqual(expected);
    const lines = discovery.warnings.map((warning) => `${warning.path}: ${warning.message}`);
    const surfaced: Record<string, readonly string[]> = {
      'rcp-client toolSet': createToolSet(discovery).warnings,
      'agent-core bridge': createRcpRegistry({ client, discoveries: [discovery] }).warnings,
      'AI SDK': createAISDKTools(client, discovery).toolSet.warnings,
      OpenAI: createOpenAITools(client, discovery).warnings,
      'OpenAI Agents': createOpenAIAgentsTools(client, discovery).warnings,
      Anthropic: createAnthropicTools(client, discovery).toolSet.warnings,
      Gemini: createGeminiTools(client, discovery).warnings,
      'MCP gateway': createRcpMcpGateway({ client, source: discovery }).warnings,
    };
    for (const [stack, warnings] of Object.entries(surfaced)) expect({ stack, warnings }).toEqual({ stack, warnings: lines });
    expect(api.count).toBe(0);
  });

  it('a stage or `only` leaves out the warnings of the tools it does not serve, on every stack', () => {
    const onlyGet = { only: ['get_note'] };
    const surfaced: Record<string, readonly string[]> = {
      OpenAI: createOpenAITools(client, discovery, onlyGet).warnings,
      'OpenAI Agents': createOpenAIAgentsTools(client, discovery, onlyGet).warnings,
      Gemini: createGeminiTools(client, discovery, onlyGet).warnings,
      'MCP gateway': createRcpMcpGateway({ client, source: discovery, only: ['get_note'] }).warnings,
      'AI SDK stage': createAISDKTools(client, discovery, { stages: { read: ['get_note'] } }).toolSet.select(['get_note']).warnings,
    };
    for (const [stack, warnings] of Object.entries(surfaced))
      expect({ stack, paths: warnings.map((line) => line.split(':')[0]) }).toEqual({ stack, paths: ['/extra'] });
  });
});
