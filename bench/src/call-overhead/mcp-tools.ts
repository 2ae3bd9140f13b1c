/** The seed tools as an MCP server author would write them; shared by the MCP server process and the listing. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`upstream answered ${response.status}`);
  return response.json();
}

/** The two seed tools as an MCP server author would write them (learnerId is a visible argument). */
export function createLearningMcpServer(upstream: string): McpServer {
  const server = new McpServer({ name: 'rcp-bench-learning', version: '1.0.0' });
  server.registerTool(
    'get_learner_profile',
    {
      description: "Fetches a learner's plan and progress by id.",
      inputSchema: { learnerId: z.string().describe("The learner's id") },
    },
    async ({ learnerId }) => {
      const json = (await getJson(`${upstream}/learners/${encodeURIComponent(learnerId)}/profile`)) as {
        data?: { name?: unknown; progress?: { percent?: unknown } };
      };
      const mapped = { name: json.data?.name, progress: json.data?.progress?.percent };
      return { content: [{ type: 'text', text: JSON.stringify(mapped) }] };
    },
  );
  server.registerTool(
    'search_courses',
    {
      description: 'Searches the course catalog by free-text query.',
      inputSchema: { query: z.string().describe('Free-text search term') },
    },
    async ({ query }) => {
      const json = await getJson(`${upstream}/courses/search?q=${encodeURIComponent(query)}`);
      return { content: [{ type: 'text', text: JSON.stringify(json) }] };
    },
  );
  return server;
}
