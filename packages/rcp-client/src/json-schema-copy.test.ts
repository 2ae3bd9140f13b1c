/**
 * jsonSchemaCopy (the adapters' one way to hand an SDK a tool's schema): a fresh deep copy,
 * equal to the tool's frozen schema, that the SDK may change without changing the tool.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, jsonSchemaCopy, type RcpClientTool } from 'rcp-client';

const manifest = {
  rcpVersion: '0.2',
  tools: [
    {
      name: 'create_order',
      description: 'Creates an order.',
      method: 'POST',
      url: '/orders',
      body: { customer: '{{customer}}', lines: '{{lines}}', note: '{{note}}' },
      params: [
        {
          name: 'customer',
          type: 'object',
          required: true,
          properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string', enum: ['vip', 'new'] } } },
        },
        { name: 'lines', type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } } },
        { name: 'note', type: 'string', maxLength: 200, default: 'none' },
      ],
      responseMappings: { id: '@id', skus: '@lines[*].sku' },
    },
  ],
};

let api: TestServer;
let tool: RcpClientTool;
beforeEach(async () => {
  api = await startTestServer();
  const discovery = await createRcpClient({ retry: 0 }).discover(serveManifest(api, manifest));
  tool = discovery.tool('create_order');
});
afterEach(async () => {
  await api.close();
});

describe('jsonSchemaCopy', () => {
  it('copies the input schema whole: equal JSON, a new object at every level, unfrozen', () => {
    const copy = jsonSchemaCopy(tool.inputSchema);
    expect(copy).toEqual(tool.inputSchema);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(tool.inputSchema));
    expect(copy).not.toBe(tool.inputSchema);
    expect(copy.properties).not.toBe(tool.inputSchema.properties);
    expect(copy.required).not.toBe(tool.inputSchema.required);
    expect(copy.properties['customer']!.properties).not.toBe(tool.inputSchema.properties['customer']!.properties);
    expect(copy.properties['lines']!.items).not.toBe(tool.inputSchema.properties['lines']!.items);
    expect(Object.isFrozen(copy)).toBe(false);
    expect(Object.isFrozen(copy.properties['customer']!.properties!['tags']!.items!.enum)).toBe(false);
    expect(jsonSchemaCopy(tool.inputSchema)).not.toBe(copy); // a new copy per call
  });

  it('mutating the copy at any depth never changes the tool (or the next copy)', () => {
    const before = JSON.stringify(tool.inputSchema);
    const copy = jsonSchemaCopy(tool.inputSchema);
    copy.required.push('lines');
    copy.properties['note']!.default = 'changed';
    copy.properties['customer']!.properties!['tags']!.items!.enum!.push('gold');
    copy.properties['lines']!.items!.properties!['qty']!.minimum = 0;
    delete copy.properties['customer'];
    copy['$schema'] = 'https://json-schema.org/draft/2020-12/schema';
    expect(JSON.stringify(tool.inputSchema)).toBe(before);
    expect(JSON.stringify(jsonSchemaCopy(tool.inputSchema))).toBe(before);
  });

  it('copies the output schema the same way', () => {
    const outputSchema = tool.outputSchema!;
    const before = JSON.stringify(outputSchema);
    const copy = jsonSchemaCopy(outputSchema);
    expect(copy).toEqual({ type: 'object', properties: { id: {}, skus: { type: 'array' } }, required: ['skus'], additionalProperties: false });
    copy.required.push('id');
    copy.properties['id']!.type = 'string';
    expect(JSON.stringify(outputSchema)).toBe(before);
  });

  it('discovery only: the server received the manifest request and nothing else', () => {
    jsonSchemaCopy(tool.inputSchema);
    expect(api.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /rcp/manifest']);
  });
});
