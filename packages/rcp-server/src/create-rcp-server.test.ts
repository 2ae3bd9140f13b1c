import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRcpClient, isRcpError } from 'rcp-client';
import { safeParseManifest } from 'rcp-manifest';
import { frameworks, notesServer, TOKEN, type HandlerLog, type Running } from './test/fixture';

const auth = { authorization: `Bearer ${TOKEN}` };

describe.each(frameworks)('rcp-server on $name (a real loopback server)', (framework) => {
  let log: HandlerLog;
  let running: Running;
  beforeEach(async () => {
    log = { calls: [] };
    running = await framework.start(notesServer(log));
  });
  afterEach(() => running.close());

  const url = (path: string) => `${running.origin}${path}`;
  async function problem(response: Response) {
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    return (await response.json()) as { status: number; code: string; errors?: { pointer: string; detail: string }[] };
  }

  it('serves a manifest that passes parseManifest, with ETag, Last-Modified and Cache-Control, and revalidates it (304)', async () => {
    const response = await fetch(url('/rcp/manifest'));
    expect(response.status).toBe(200);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(response.headers.get('last-modified')).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const result = safeParseManifest(await response.text());
    expect(result.ok && result.warnings).toEqual([]);
    expect(result.ok && result.manifest.tools.map((tool) => tool.name)).toEqual(['get_note', 'search_notes', 'create_note', 'pay']);
    expect(JSON.stringify(result.ok && result.manifest)).not.toContain('bound');
    // A bound param is served as filled by the client (RCP 0.4's informational hint), any other as declared.
    expect(result.ok && result.manifest.tools[0]!.params).toEqual([
      { name: 'userId', description: 'The user', filledBy: 'client' },
      { name: 'noteId', pattern: '^n-[0-9]+$' },
    ]);

    const byTag = await fetch(url('/rcp/manifest'), { headers: { 'if-none-match': etag } });
    expect(byTag.status).toBe(304);
    expect(byTag.headers.get('etag')).toBe(etag);
    expect(await byTag.text()).toBe('');
    const byDate = await fetch(url('/rcp/manifest'), { headers: { 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' } });
    expect(byDate.status).toBe(304);
    const changed = await fetch(url('/rcp/manifest'), { headers: { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' } });
    expect(changed.status).toBe(200); // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2)
    expect((await fetch(url('/rcp/manifest'), { method: 'POST' })).status).toBe(405);
  });

  it('runs a call from rcp-client end to end, the bound param filled by its resolver', async () => {
    const client = createRcpClient({ resolvers: { userId: (ctx: { userId: string }) => ctx.userId }, credentials: () => TOKEN });
    const discovery = await client.discover(url('/rcp/manifest'));
    const note = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, { userId: 'u-1' });
    expect(note).toMatchObject({ ok: true, result: { status: 200, data: { id: 'n-1', owner: 'u-1' } } });
    const created = await client.call(
      discovery,
      { name: 'create_note', arguments: { title: 'Eggs', priority: 'high', meta: { color: 'red' } } },
      { userId: 'u-1' },
    );
    expect(created).toMatchObject({ ok: true, result: { status: 201, data: { id: 'n-9', title: 'Eggs' } } });
    await client.call(discovery, { name: 'search_notes', arguments: { query: 'eggs', limit: 5, tags: ['home', 'work'], pinned: false } }, { userId: 'u-1' });
    await client.call(discovery, { name: 'pay', arguments: { amount: 12, to: ['+1', '+2'], metadata: { order: 'o&1' } } }, { userId: 'u-1' });
    expect(log.calls).toEqual([
      { tool: 'get_note', values: { userId: 'u-1', noteId: 'n-1' } },
      { tool: 'create_note', values: { userId: 'u-1', title: 'Eggs', priority: 'high', meta: { color: 'red' } } },
      { tool: 'search_notes', values: { userId: 'u-1', query: 'eggs', limit: 5, tags: ['home', 'work'], pinned: false } },
      { tool: 'pay', values: { userId: 'u-1', amount: 12, to: ['+1', '+2'], metadata: { order: 'o&1' } } },
    ]);
  });

  it('adds Link: rel="describedby" to tool responses', async () => {
    const response = await fetch(url('/users/u-1/notes/n-1'), { headers: auth });
    expect(response.headers.get('link')).toBe('</rcp/manifest>; rel="describedby"');
  });

  it.each([
    ['a pattern', '/users/u-1/notes/x-1', '/noteId', 'must match the pattern "^n-[0-9]+$"'],
    ['a required query value', '/users/u-1/notes', '/query', 'is required'],
    ['a string length', '/users/u-1/notes?q=a', '/query', 'must be at least 2 characters long'],
    ['an integer type', '/users/u-1/notes?q=ab&limit=1.5', '/limit', 'must be a safe integer (got number)'],
    ['an integer given as text', '/users/u-1/notes?q=ab&limit=ten', '/limit', 'must be a safe integer (got string)'],
    ['a bound', '/users/u-1/notes?q=ab&limit=51', '/limit', 'must be ≤ 50'],
    ['an enum in an array', '/users/u-1/notes?q=ab&tag=home&tag=play', '/tags/1', 'must be one of "home", "work"'],
    ['a boolean', '/users/u-1/notes?q=ab&pinned=yes', '/pinned', 'must be a boolean (got string)'],
    ['a bad percent-encoding', '/users/u-1/notes/%E0%A4%A', '/noteId', 'is not valid percent-encoding'],
  ])('refuses %s with a 400 naming the param; the handler is never called', async (_what, path, pointer, detail) => {
    const response = await fetch(url(path), { headers: auth });
    expect(response.status).toBe(400);
    const body = await problem(response);
    expect(body).toMatchObject({ status: 400, code: 'RCP_INVALID_ARGUMENTS' });
    expect(body.errors).toContainEqual({ pointer, detail });
    expect(log.calls).toEqual([]);
  });

  it.each([
    ['an extra body key', { owner: 'u-1', title: 'x', admin: true }, '/admin', 'is not a parameter of this tool'],
    ['a required body value', { owner: 'u-1' }, '/title', 'is required'],
    ['a wrong body type', { owner: 'u-1', title: 7 }, '/title', 'must be a string (got integer)'],
    ['a nested unknown key', { owner: 'u-1', title: 'x', meta: { size: 1 } }, '/meta/size', 'is not a property of this object'],
    ['a body that is not JSON', '{"owner":', '', 'are not valid JSON'],
  ])('refuses %s in a JSON body with a 400; the handler is never called', async (_what, body, pointer, detail) => {
    const response = await fetch(url('/users/u-1/notes'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    expect((await problem(response)).errors).toContainEqual({ pointer, detail });
    expect(log.calls).toEqual([]);
  });

  it('refuses a header value outside its enum, a form field of the wrong type, and the wrong content type', async () => {
    const header = await fetch(url('/users/u-1/notes'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'x-priority': 'urgent' },
      body: JSON.stringify({ owner: 'u-1', title: 'x' }),
    });
    expect((await problem(header)).errors).toEqual([{ pointer: '/priority', detail: 'must be one of "low", "high"' }]);
    const form = await fetch(url('/users/u-1/payments'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'amount=ten&owner=u-1',
    });
    expect((await problem(form)).errors).toEqual([{ pointer: '/amount', detail: 'must be a safe integer (got string)' }]);
    const type = await fetch(url('/users/u-1/payments'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"amount":1}',
    });
    expect(type.status).toBe(415);
    expect(log.calls).toEqual([]);
  });

  it('refuses a bound param that is not the caller’s with a 403 — in the path and in the body — before the handler', async () => {
    const spoofedPath = await fetch(url('/users/u-2/notes/n-1'), { headers: auth });
    expect(spoofedPath.status).toBe(403);
    expect(await problem(spoofedPath)).toMatchObject({ code: 'RCP_FORBIDDEN_PARAM', errors: [{ pointer: '/userId' }] });
    const spoofedBody = await fetch(url('/users/u-2/notes'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ owner: 'u-2', title: 'x' }),
    });
    expect(spoofedBody.status).toBe(403);
    // The path says the caller, the body someone else: one token, two values, refused.
    const split = await fetch(url('/users/u-1/notes'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ owner: 'u-2', title: 'x' }),
    });
    expect(split.status).toBe(400);
    expect((await problem(split)).errors).toEqual([{ pointer: '/userId', detail: 'is given more than once, with different values' }]);
    // The same path is fine for the user it belongs to.
    expect((await fetch(url('/users/u-2/notes/n-1'), { headers: { authorization: 'Bearer token-bob' } })).status).toBe(200);
    expect(log.calls.map((call) => call.values.userId)).toEqual(['u-2']);
  });

  it('stops reading a body past maxBodyBytes, with or without Content-Length (413)', async () => {
    const big = JSON.stringify({ owner: 'u-1', title: 'x', meta: { color: 'x'.repeat(1_100_000) } });
    const declared = await fetch(url('/users/u-1/notes'), { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    const chunks = [new TextEncoder().encode(big.slice(0, 600_000)), new TextEncoder().encode(big.slice(600_000))];
    const streamed = await fetch(url('/users/u-1/notes'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(chunk);
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(log.calls).toEqual([]);
  });

  it('answers 401 without a valid token, before reading the arguments', async () => {
    const none = await fetch(url('/users/u-1/notes/x'));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await fetch(url('/users/u-1/notes/n-1'), { headers: { authorization: 'Bearer token-adb' } })).status).toBe(401);
    expect(log.calls).toEqual([]);
  });

  it('refuses a spoofed user from rcp-client too: a resolver-bound param is an unknown key there, so nothing is sent', async () => {
    const client = createRcpClient({ resolvers: { userId: () => 'u-1' }, credentials: () => TOKEN });
    const discovery = await client.discover(url('/rcp/manifest'));
    const outcome = await client.call(discovery, { name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-2' } });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'RCP_INVALID_ARGUMENTS' } });
    // A client without the resolver is stopped by the server.
    const rogue = createRcpClient({ credentials: () => TOKEN });
    const raw = await rogue.discover(url('/rcp/manifest'));
    const refused = await rogue.call(raw, { name: 'get_note', arguments: { noteId: 'n-1', userId: 'u-2' } });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && isRcpError(refused.error, 'RCP_HTTP_ERROR') && refused.error.status).toBe(403);
    expect(log.calls).toEqual([]);
  });
});
