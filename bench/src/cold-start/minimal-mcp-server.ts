/**
 * The hand-written minimal MCP server the gateway's start-up is divided by: the MCP server SDK the
 * gateway uses (`@modelcontextprotocol/server`, the same version), `McpServer` over stdio with the
 * two seed tools declared from the same JSON Schemas the gateway shows (`fromJsonSchema`), as one
 * would write it by hand. Its handlers are never called here (the row measures start-to-first-output).
 */
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
serveStdio(() => {
  const server = new McpServer({ name: 'learning', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'get_learner_profile',
    {
      description: "Fetches a learner's plan and progress by id.",
      inputSchema: fromJsonSchema({ type: 'object', properties: {}, required: [], additionalProperties: false }),
    },
    async () => text({ learnerId: 'l-1' }),
  );
  server.registerTool(
    'search_courses',
    {
      description: 'Searches the course catalog by free-text query.',
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { query: { type: 'string', description: 'Free-text search term' } },
        required: ['query'],
        additionalProperties: false,
      }),
    },
    async (args) => text(args),
  );
  return server;
});
