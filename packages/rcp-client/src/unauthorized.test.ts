import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, serveManifest, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, isRcpError, toModelResult, type RcpUnauthorizedInfo } from 'rcp-client';

const manifest = {
  rcpVersion: '0.1',
  auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
  tools: [
    { name: 'list_notes', description: 'Lists notes.', method: 'GET', url: '/notes', params: [] },
    {
      name: 'create_note',
      description: 'Creates a note.',
      method: 'POST',
      url: '/notes',
      body: { title: '{{title}}' },
      params: [{ name: 'title', required: true }],
    },
    { name: 'public_info', description: 'No auth.', method: 'GET', url: '/info', auth: { type: 'none' }, params: [] },
  ],
};

let server: TestServer;
let manifestUrl: string;
/** The token the server accepts right now. */
let valid: string;

beforeEach(async () => {
  server = await startTestServer();
  manifestUrl = serveManifest(server, manifest);
  valid = 'token-2';
  const handler = (request: { headers: Record<string, unknown>; method: string; json: unknown }, res: import('node:http').ServerResponse) => {
    if (request.headers.authorization !== `Bearer ${valid}`) {
      sendJson(
        res,
        401,
        { error: 'invalid_token' },
        {
          'www-authenticate': 'Bearer realm="notes", error="invalid_token", resource_metadata="https://notes.example/.well-known/oauth-protected-resource"',
        },
      );
      return;
    }
    sendJson(res, request.method === 'POST' ? 201 : 200, { ok: true, body: request.json ?? null });
  };
  server.route('GET /notes', handler);
  server.route('POST /notes', handler);
  server.route('GET /info', (_request, res) => sendJson(res, 401, {}, { 'www-authenticate': 'Bearer' }));
});
afterEach(() => server.close());

const toolRequests = () => server.requests.filter((request) => request.path !== '/rcp/manifest');

describe('onUnauthorized: a 401 → the application renews → ONE more attempt', () => {
  it('true: the request is built again (credentials asked again) and sent once more, for a POST too', async () => {
    let current = 'token-1';
    const credentialCalls: string[] = [];
    const seen: RcpUnauthorizedInfo<{ userId: string }>[] = [];
    const client = createRcpClient<{ userId: string }>({
      credentials: ({ ctx }) => (credentialCalls.push(ctx.userId), current),
      onUnauthorized: (info) => {
        seen.push(info);
        current = 'token-2';
        return true;
      },
      retry: 0,
    });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'create_note', arguments: { title: 'milk' } }, { userId: 'u-1' });
    expect(outcome.ok && outcome.result).toMatchObject({ status: 201, data: { ok: true, body: { title: 'milk' } } });
    expect(toolRequests().map((request) => [request.method, request.headers.authorization, request.body])).toEqual([
      ['POST', 'Bearer token-1', '{"title":"milk"}'],
      ['POST', 'Bearer token-2', '{"title":"milk"}'],
    ]);
    expect(credentialCalls).toEqual(['u-1', 'u-1']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      ctx: { userId: 'u-1' },
      origin: server.origin,
      manifestUrl,
      challenge: {
        scheme: 'Bearer',
        realm: 'notes',
        error: 'invalid_token',
        resourceMetadata: 'https://notes.example/.well-known/oauth-protected-resource',
      },
    });
    expect(seen[0]!.tool).toBe(discovery.tool('create_note'));
    // The refused credential is recognisable, never given.
    expect(seen[0]!.wasSent('token-1')).toBe(true);
    expect(seen[0]!.wasSent('token-2')).toBe(false);
    expect(JSON.stringify(seen[0])).not.toContain('token-1');
  });

  it('a second 401 is the RcpHttpError: two requests, the hook called once (no loop)', async () => {
    let calls = 0;
    const client = createRcpClient({ credentials: () => 'always-wrong', onUnauthorized: () => (calls++, true) });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: {} });
    expect(!outcome.ok && outcome.error).toMatchObject({ code: 'RCP_HTTP_ERROR', status: 401, challenge: { error: 'invalid_token' } });
    expect(calls).toBe(1);
    expect(toolRequests()).toHaveLength(2);
  });

  it('false, a throw, or anything but true: the 401 error, one request', async () => {
    for (const onUnauthorized of [
      () => false,
      () => {
        throw new Error('store down');
      },
      async () => 'yes' as never,
      () => Promise.reject(new Error('x')),
    ]) {
      server.reset();
      const client = createRcpClient({ credentials: () => 'token-1', onUnauthorized });
      const discovery = await client.discover(manifestUrl);
      const outcome = await client.call(discovery, { name: 'list_notes', arguments: {} });
      expect(!outcome.ok && outcome.error).toMatchObject({ code: 'RCP_HTTP_ERROR', status: 401 });
      expect(toolRequests()).toHaveLength(1);
    }
  });

  it('not called for a tool that sends no credential, nor for other statuses', async () => {
    let calls = 0;
    const client = createRcpClient({ credentials: () => 'token-2', onUnauthorized: () => (calls++, true) });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'public_info', arguments: {} });
    expect(!outcome.ok && outcome.error).toMatchObject({ status: 401 });
    server.route('GET /notes', (_request, res) => sendJson(res, 403, {}, { 'www-authenticate': 'Bearer error="insufficient_scope", scope="notes:write"' }));
    const forbidden = await client.call(discovery, { name: 'list_notes', arguments: {} });
    expect(!forbidden.ok && forbidden.error).toMatchObject({ status: 403, challenge: { error: 'insufficient_scope', scope: 'notes:write' } });
    expect(calls).toBe(0);
    expect(toolRequests()).toHaveLength(2);
  });

  it('the challenge is redacted like the body, and the model reads "authorization required", never the token', async () => {
    const token = 'tok-5f0c9a7e3b1d4c2a8e6f';
    server.route('GET /notes', (request, res) =>
      sendJson(res, 401, { error: 'nope' }, { 'www-authenticate': `Bearer error_description="rejected ${String(request.headers.authorization)}"` }),
    );
    const client = createRcpClient({ credentials: () => token });
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: {} });
    const error = !outcome.ok ? outcome.error : undefined;
    expect(isRcpError(error, 'RCP_HTTP_ERROR') && error.challenge).toEqual({ scheme: 'Bearer', errorDescription: 'rejected Bearer [redacted]' });
    const model = toModelResult(outcome);
    expect(model).toEqual({ ok: false, error: { code: 'RCP_HTTP_ERROR', message: expect.stringContaining('authorization required') } });
    expect(JSON.stringify([model, error, error?.message])).not.toContain(token);
  });

  it('refuses an onUnauthorized that is not a function, before anything is sent', () => {
    expect(() => createRcpClient({ onUnauthorized: true as never })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });
});

describe('every secret of every attempt is redacted for the whole call (issue 38)', () => {
  const FIRST = 'tok-first-7a1c55e0d2b94f31';
  const SECOND = 'tok-second-3e8b07c6a9d24e17';
  /** A server that quotes, on every 401, both tokens it has seen: the first attempt's on the retry's answer too. */
  function quotingBoth(): void {
    server.route('GET /notes', (request, res) => {
      const seen = `${FIRST} was revoked; ${String(request.headers.authorization)} is not valid`;
      res.writeHead(401, `Revoked ${FIRST}`, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", error_description="${seen}", scope="${FIRST}"`,
      });
      res.end(JSON.stringify({ error: seen, first: FIRST, escaped: FIRST.replaceAll('-', '\\u002d') }));
    });
  }
  function renewingClient(options: Parameters<typeof createRcpClient>[0] = {}) {
    let current = FIRST;
    return createRcpClient({
      credentials: () => current,
      onUnauthorized: () => {
        current = SECOND;
        return true;
      },
      retry: 0,
      ...options,
    });
  }

  it("401 → new token → retry → 401: the final error's challenge, excerpt, message, JSON and inspect output show neither token", async () => {
    quotingBoth();
    const observedBodies: string[] = [];
    const client = renewingClient();
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: {} }, undefined, {
      observeResponse: (response) => observedBodies.push(JSON.stringify(response)),
    });
    expect(toolRequests().map((request) => request.headers.authorization)).toEqual([`Bearer ${FIRST}`, `Bearer ${SECOND}`]);
    const error = !outcome.ok ? outcome.error : undefined;
    expect(isRcpError(error, 'RCP_HTTP_ERROR') && error.challenge).toEqual({
      scheme: 'Bearer',
      error: 'invalid_token',
      errorDescription: '[redacted] was revoked; Bearer [redacted] is not valid',
      scope: '[redacted]',
    });
    const shown = [
      JSON.stringify(error),
      inspect(error, { depth: 8 }),
      String(error),
      error?.stack,
      isRcpError(error, 'RCP_HTTP_ERROR') ? error.bodyExcerpt : '',
      JSON.stringify(toModelResult(outcome)),
      ...observedBodies,
    ].join('\n');
    expect(shown).not.toContain(FIRST);
    expect(shown).not.toContain(SECOND);
    expect(shown).not.toContain('7a1c55e0'); // no part of the first token, escaped or not
  });

  it('a 2xx after the retry that echoes the first token does not hand it to the model', async () => {
    let attempts = 0;
    server.route('GET /notes', (request, res) => {
      attempts += 1;
      if (attempts === 1) sendJson(res, 401, { error: 'expired' });
      else sendJson(res, 200, { previous: FIRST, now: String(request.headers.authorization) });
    });
    const client = renewingClient();
    const discovery = await client.discover(manifestUrl);
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: {} });
    expect(toModelResult(outcome)).toEqual({ ok: true, data: { previous: '[redacted]', now: 'Bearer [redacted]' } });
  });
});
