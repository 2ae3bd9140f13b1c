import { afterEach, describe, expect, it, vi } from 'vitest';
import { ModelToolRegistry, Support } from 'rcp-sdk/agent-core';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the agent-core seed examples, importing from rcp-sdk/agent-core', () => {
  it('"Declare two selectable tools" runs as written', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    // --- the seed example, as written (import from rcp-sdk/agent-core) ---
    const inputSchema = {
      jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
      parse(value: unknown) {
        if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length) throw new Error('需要空对象');
        return {};
      },
    };
    const tools = new ModelToolRegistry([
      { id: 'greet', description: '回答问候', inputSchema, resolve: () => 'greet' },
      { id: 'status', description: '查询状态', inputSchema, resolve: () => 'status' },
    ]).seal();
    console.log(tools.resolve({ toolId: 'status', input: {} }, { stageId: 'recognize' }));
    // ---

    expect(log.mock.calls).toEqual([['status']]);
  });

  it('"Project an allowed subset to only one stage" runs as written', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);

    // --- the seed example, as written (import from rcp-sdk/agent-core) ---
    const schema = Support.defineSchema({
      jsonSchema: { type: 'object', properties: {} },
      parse(value: unknown) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('需要对象');
        return {};
      },
    });
    const registry = new ModelToolRegistry([
      { id: 'greet', description: '问候', inputSchema: schema, resolve: () => 'greet' },
      { id: 'status', description: '状态', inputSchema: schema, resolve: () => 'status' },
    ]).seal();
    const readOnly = registry.select(['status']);
    const transport = Support.createModelTransport({ id: 'recognize', tools: readOnly });
    console.log(transport.id, readOnly.ids());
    // ---

    expect(log.mock.calls).toEqual([['recognize', ['status']]]);
  });
});
