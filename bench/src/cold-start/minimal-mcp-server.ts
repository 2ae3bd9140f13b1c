/**
 * The hand-written minimal MCP server the gateway's start-up is divided by: the MCP SDK's
 * `McpServer` over stdio with the two seed tools declared with zod, as the SDK's README writes
 * one. Its handlers are never called here (the row measures start-to-first-output).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'learning', version: '1.0.0' });
const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
server.tool('get_learner_profile', "Fetches a learner's plan and progress by id.", { learnerId: z.string().describe("The learner's id") }, async ({ learnerId }) => text({ learnerId }));
server.tool('search_courses', 'Searches the course catalog by free-text query.', { query: z.string().describe('Free-text search term') }, async ({ query }) => text({ query }));
await server.connect(new StdioServerTransport());
