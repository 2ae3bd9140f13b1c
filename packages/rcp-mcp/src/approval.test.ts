/**
 * A person's approval through MCP elicitation (SPEC §19; docs/behaviour.md): real MCP clients — with and without
 * the elicitation capability — against the gateway over the notes API on 127.0.0.1, asserting
 * what the API received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport as StreamTransportV1 } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient } from 'rcp-client';
import { NOTES_TOKEN, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createRcpMcpHttpHandler, serveRcpMcpStdio } from './index';

let notes: TestServer;
let manifestUrl: string;
const closers: (() => Promise<unknown>)[] = [];
beforeEach(async () => {
  ({ server: notes, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await notes.close();
});

type Answer = (request: ElicitRequest['params']) => ElicitResult;

/** A v1 SDK host over stdio; with `answer`, it declares elicitation and answers with it. */
async function stdioHost(answer?: Answer): Promise<{ client: ClientV1; asked: ElicitRequest['params'][] }> {
  const asked: ElicitRequest['params'][] = [];
  const client = new ClientV1({ name: 'host-v1', version: '1.0.0' }, answer === undefined ? {} : { capabilities: { elicitation: {} } });
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      // Nothing reaches the API while the person is being asked.
      expect(toolRequestLines(notes)).toEqual([]);
      return answer(request.params);
    });
  }
  // A stdio gateway whose client asks for approval of every write, as an operator's own script would serve one,
  // on a pair of streams: the host's SDK transport speaks the stdio framing over the same streams.
  const rcp = createRcpClient({ approval: 'writes', resolvers: { userId: () => 'u-1' }, credentials: () => NOTES_TOKEN });
  const hostIn = new PassThrough();
  const hostOut = new PassThrough();
  const served = serveRcpMcpStdio({ client: rcp, source: await rcp.discover(manifestUrl) }, {}, { stdin: hostOut, stdout: hostIn });
  await client.connect(new StreamTransportV1(hostIn, hostOut));
  closers.push(
    () => client.close(),
    () => served.close(),
  );
  notes.reset();
  return { client, asked };
}

const createNote = { name: 'create_note', arguments: { title: 'Plan', text: 'eggs' } };
const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
/** What the model reads of a failed call: toModelText's JSON. */
const failureText = (code: string, message: string) => JSON.stringify({ ok: false, error: { code, message } });
const DENIED = failureText('RCP_APPROVAL_DENIED', 'The call was denied: the person declined it in the MCP host');

describe('a 2025-era host over stdio (the v1 SDK client)', () => {
  it('with elicitation: the person sees the exact request; yes sends exactly it, once', async () => {
    const { client, asked } = await stdioHost(() => ({ action: 'accept', content: { approve: true } }));
    const result = (await client.callTool(createNote)) as Record<string, unknown>;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toEqual({ id: 'n-2', title: 'Plan', text: 'eggs' });
    // Exactly the reviewed request reached the API, once, with the credential.
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests[0]!.json).toEqual({ title: 'Plan', text: 'eggs' });
    expect(notes.requests[0]!.headers.authorization).toBe(`Bearer ${NOTES_TOKEN}`);
    // What the person was shown: the request, resolver values in, the credential redacted.
    expect(asked).toHaveLength(1);
    const { message, requestedSchema } = asked[0] as { message: string; requestedSchema: unknown };
    expect(message).toContain('create_note needs your approval');
    expect(message).toContain(`"url": "${notes.url('/users/u-1/notes')}"`);
    expect(message).toContain('"method": "POST"');
    expect(message).toContain('[redacted]');
    expect(message).not.toContain(NOTES_TOKEN);
    expect(requestedSchema).toMatchObject({ type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] });
    // A read needs no one.
    await client.callTool({ name: 'get_note', arguments: { noteId: 'n-1' } });
    expect(asked).toHaveLength(1);
  });

  it.each([
    ['declines', { action: 'decline' }],
    ['cancels', { action: 'cancel' }],
    ['answers no', { action: 'accept', content: { approve: false } }],
  ] as const)('with elicitation, the person %s: nothing sent, the model reads the denial', async (_name, answer) => {
    const { client, asked } = await stdioHost(() => answer as ElicitResult);
    const result = await client.callTool({ name: 'delete_note', arguments: { noteId: 'n-1' } });
    expect(asked).toHaveLength(1);
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe(DENIED);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('without elicitation: fails closed with a clear message, nothing sent', async () => {
    const { client } = await stdioHost();
    const result = await client.callTool(createNote);
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe(
      failureText('RCP_APPROVAL_REQUIRED', "The call needs a person's approval; this MCP host cannot ask (no elicitation support), so it was not made."),
    );
    expect(toolRequestLines(notes)).toEqual([]);
  });
});

describe('streamable HTTP (stateless)', () => {
  async function startGateway(): Promise<URL> {
    const client = createRcpClient({ approval: 'writes', resolvers: { userId: () => 'u-1' }, credentials: () => NOTES_TOKEN });
    const handler = createRcpMcpHttpHandler({ client, source: await client.discover(manifestUrl), authenticate: () => ({}) });
    const gateway: Server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => gateway.close(resolve)));
    notes.reset();
    return new URL(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`);
  }

  it('a 2025-era host cannot be asked on a per-request server, even with elicitation: fails closed, nothing sent', async () => {
    const client = new ClientV1({ name: 'host-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(new HttpTransportV1(await startGateway()));
    closers.push(() => client.close());
    const result = await client.callTool(createNote);
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toContain('this MCP host cannot ask (no elicitation support)');
    expect(asked).toBe(0);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  /** A 2026-07-28 host (the v2 SDK client pinned to it); with `answer`, it declares elicitation. */
  async function modernHost(url: URL, answer?: (params: unknown) => ElicitResult): Promise<{ client: ClientV2; asked: unknown[] }> {
    const asked: unknown[] = [];
    const client = new ClientV2(
      { name: 'host-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...(answer !== undefined && { capabilities: { elicitation: {} } }) },
    );
    if (answer !== undefined) {
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params);
        expect(toolRequestLines(notes)).toEqual([]); // nothing sent while asking
        return answer(request.params);
      });
    }
    await client.connect(new HttpTransportV2(url));
    closers.push(() => client.close());
    return { client, asked };
  }

  it('a 2026-07-28 host with elicitation (input_required, our requestState back): yes sends exactly the reviewed request, once', async () => {
    const { client, asked } = await modernHost(await startGateway(), () => ({ action: 'accept', content: { approve: true } }));
    const result = (await client.callTool(createNote)) as Record<string, unknown>;
    expect(result.isError).not.toBe(true);
    expect(asked).toHaveLength(1);
    expect((asked[0] as { message: string }).message).toContain(`"url": "${notes.url('/users/u-1/notes')}"`);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    expect(notes.requests[0]!.json).toEqual({ title: 'Plan', text: 'eggs' });
  });

  it('a 2026-07-28 host with elicitation, the person declines: nothing sent, the model reads the denial', async () => {
    const { client } = await modernHost(await startGateway(), () => ({ action: 'decline' }));
    const result = await client.callTool(createNote);
    expect(textOf(result)).toBe(DENIED);
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('a 2026-07-28 host without elicitation: fails closed, nothing sent', async () => {
    const { client } = await modernHost(await startGateway());
    const result = await client.callTool(createNote);
    expect(textOf(result)).toContain('this MCP host cannot ask (no elicitation support)');
    expect(toolRequestLines(notes)).toEqual([]);
  });

  it('the requestState comes back attacker-controlled: replayed, or with other arguments, it is refused and nothing is sent', async () => {
    const url = await startGateway();
    // The host's own requests, recorded as it sends them (the real fetch sends them).
    const posts: { headers: Headers; body: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      if (typeof init?.body === 'string') posts.push({ headers: new Headers(init.headers), body: init.body });
      return fetch(input, init);
    };
    const host = new ClientV2(
      { name: 'host-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {} } },
    );
    host.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { approve: true } }));
    await host.connect(new HttpTransportV2(url, { fetch: recording }));
    closers.push(() => host.close());
    await host.callTool(createNote);
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']);
    const retry = posts.find((post) => post.body.includes('requestState'))!;
    const replay = async (edit: (message: { params: { arguments: Record<string, unknown> } }) => unknown): Promise<string> => {
      const message = JSON.parse(retry.body) as { params: { arguments: Record<string, unknown> } };
      edit(message);
      const response = await fetch(url, { method: 'POST', headers: retry.headers, body: JSON.stringify(message) });
      return response.text();
    };
    expect(await replay(() => undefined)).toContain('RCP_APPROVAL_MISMATCH'); // the same approval again
    expect(await replay((message) => (message.params.arguments = { title: 'Other' }))).toContain('RCP_APPROVAL_MISMATCH');
    expect(await replay((message) => Object.assign(message.params, { requestState: '{"tool":"create_note"' }))).toContain('RCP_APPROVAL_MISMATCH');
    expect(toolRequestLines(notes)).toEqual(['POST /users/u-1/notes']); // nothing more sent
  });
});
