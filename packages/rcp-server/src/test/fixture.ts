import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import { bearerAuth, createRcpServer, defineTool, type RcpServer } from '../index';
import { rcpExpress } from '../express';
import { rcpHono } from '../hono';
import { toNodeListener } from '../node';

export const TOKEN = 'token-ada';
export interface Principal {
  userId: string;
}

/** Every handler call, by tool: a test asserts a refused call reached none. */
export interface HandlerLog {
  calls: { tool: string; values: Record<string, unknown> }[];
}

/** A small notes API declared with rcp-server, recording what its handlers were given. */
export function notesServer(log: HandlerLog, options: { describedBy?: boolean } = {}): RcpServer {
  const record = (tool: string, values: Record<string, unknown>) => log.calls.push({ tool, values: { ...values } });
  const userId = { name: 'userId', description: 'The user', bound: (principal: Principal) => principal.userId };
  return createRcpServer<Principal>({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: bearerAuth([
      { token: TOKEN, principal: { userId: 'u-1' } },
      { token: 'token-bob', principal: { userId: 'u-2' } },
    ]),
    lastModified: new Date('2026-01-01T00:00:00Z'),
    ...options,
    tools: [
      defineTool<Principal>({
        name: 'get_note',
        description: 'Fetches one note.',
        method: 'GET',
        path: '/users/{{userId}}/notes/{{noteId}}',
        params: [userId, { name: 'noteId', pattern: '^n-[0-9]+$' }],
        handler: ({ values }) => {
          record('get_note', values);
          return { id: values.noteId, owner: values.userId };
        },
      }),
      defineTool<Principal>({
        name: 'search_notes',
        description: 'Searches notes.',
        method: 'GET',
        path: '/users/{{userId}}/notes',
        params: [
          userId,
          { name: 'query', required: true, minLength: 2 },
          { name: 'limit', type: 'integer', minimum: 1, maximum: 50 },
          { name: 'tags', type: 'array', items: { type: 'string', enum: ['home', 'work'] } },
          { name: 'pinned', type: 'boolean' },
        ],
        queryParams: { q: '{{query}}', limit: '{{limit}}', tag: '{{tags}}', pinned: '{{pinned}}' },
        handler: ({ values }) => {
          record('search_notes', values);
          return { results: [] };
        },
      }),
      defineTool<Principal>({
        name: 'create_note',
        description: 'Creates a note.',
        method: 'POST',
        path: '/users/{{userId}}/notes',
        params: [
          userId,
          { name: 'title', required: true, maxLength: 20 },
          { name: 'priority', type: 'string', enum: ['low', 'high'] },
          { name: 'meta', type: 'object', properties: { color: { type: 'string' } } },
        ],
        headers: { 'X-Priority': '{{priority}}' },
        body: { owner: '{{userId}}', title: '{{title}}', meta: '{{meta}}' },
        handler: ({ values }) => {
          record('create_note', values);
          return Response.json({ id: 'n-9', title: values.title }, { status: 201 });
        },
      }),
      defineTool<Principal>({
        name: 'pay',
        description: 'Pays an amount (a form body).',
        method: 'POST',
        path: '/users/{{userId}}/payments',
        params: [
          userId,
          { name: 'amount', type: 'integer', required: true, minimum: 1 },
          { name: 'to', type: 'array', items: { type: 'string' } },
          { name: 'metadata', type: 'object', properties: { order: { type: 'string' } } },
        ],
        bodyEncoding: 'form',
        body: { amount: '{{amount}}', to: '{{to}}', metadata: '{{metadata}}', owner: '{{userId}}' },
        handler: ({ values }) => {
          record('pay', values);
          return { paid: values.amount };
        },
      }),
    ],
  });
}

/** What `create` threw (a server refused at creation); a test fails when it did not throw. */
export function creationError(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  throw new Error('createRcpServer did not throw');
}

export interface Running {
  readonly name: string;
  readonly origin: string;
  close(): Promise<void>;
}

async function listen(server: ReturnType<typeof createNodeServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The same RCP server mounted by each adapter on a real loopback server. */
export const frameworks: { name: string; start(server: RcpServer): Promise<Running> }[] = [
  {
    name: 'node:http',
    async start(server) {
      const http = createNodeServer(toNodeListener(server));
      const origin = await listen(http);
      return { name: 'node:http', origin, close: () => new Promise((resolve) => http.close(() => resolve())) };
    },
  },
  {
    name: 'express',
    async start(server) {
      const app = express();
      app.use(rcpExpress(server));
      app.get('/health', (_request, response) => void response.json({ ok: true }));
      const http = createNodeServer(app);
      const origin = await listen(http);
      return { name: 'express', origin, close: () => new Promise((resolve) => http.close(() => resolve())) };
    },
  },
  {
    name: 'hono',
    async start(server) {
      const app = new Hono();
      app.use(rcpHono(server));
      app.get('/health', (context) => context.json({ ok: true }));
      const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(running));
      });
      const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      return { name: 'hono', origin, close: () => new Promise((resolve) => http.close(() => resolve())) };
    },
  },
];
