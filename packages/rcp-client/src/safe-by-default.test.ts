/**
 * Issue 20, item 2: safe by default when resolvers are in play. A client with any resolver refuses
 * at discovery an identity-looking param that no resolver fills (the forgotten or unrelated
 * resolver name that would hand the model the user's id), unless the operator lists it in
 * `modelFilledParams`; discovery warnings reach the operator once, through `onWarning`.
 * Each against the notes API on 127.0.0.1, asserting what it received.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOTES_TOKEN, notesManifest, startNotesApi, toolRequestLines, type TestServer } from 'rcp-test-utils';
import { createRcpClient, type RcpDiscoveryWarning } from 'rcp-client';
import { errorText, rejectsWith, serveManifest } from './internal/testing';

let server: TestServer;
let manifestUrl: string;
beforeEach(async () => {
  ({ server, manifestUrl } = await startNotesApi());
});
afterEach(async () => {
  await server.close();
});

type Ctx = { user?: string };
const SECRET_USER = 'u-secret-77';
const credentials = () => NOTES_TOKEN;
const quiet = { onWarning: () => {} };

describe('a client with a resolver and an identity-looking param no resolver fills', () => {
  it('fails discovery with RCP_UNBOUND_PARAM (an unrelated resolver name: "user" fills nothing), before any tool request', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { user: (ctx) => ctx.user ?? SECRET_USER }, credentials, ...quiet });
    const error = await rejectsWith(client.discover(manifestUrl), 'RCP_UNBOUND_PARAM');
    expect(error).toMatchObject({ tool: 'list_notes', param: 'userId', path: '/tools/0/params/0', resolver: '' });
    expect(error.message).toContain('looks like an identity');
    expect(error.message).toContain('"modelFilledParams"');
    expect(errorText(error)).not.toContain(SECRET_USER);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['GET /rcp/manifest']);
  });

  it('load() applies the same rule to a manifest handed over (nothing is fetched at all)', async () => {
    server.reset();
    const client = createRcpClient({ resolvers: { tenantId: () => 't-1' }, ...quiet });
    await rejectsWith(client.load(notesManifest, { manifestUrl }), 'RCP_UNBOUND_PARAM');
    expect(server.count).toBe(0);
  });

  it.each(['email', 'customer_email', 'ownerId', 'orgId', 'accountId', 'uid'])('%s counts as identity-looking', async (name) => {
    const url = serveManifest(server, {
      rcpVersion: '0.1',
      tools: [{ name: 'find', description: 'Finds.', method: 'GET', url: '/find', queryParams: { q: `{{${name}}}` }, params: [{ name }] }],
    });
    const error = await rejectsWith(createRcpClient({ resolvers: { locale: () => 'en' }, ...quiet }).discover(url), 'RCP_UNBOUND_PARAM');
    expect(error.param).toBe(name);
  });

  it('the escape hatch: modelFilledParams lists it, and the model fills it (no warning, in the schema)', async () => {
    const client = createRcpClient({ resolvers: { user: () => 'u-1' }, credentials, modelFilledParams: ['userId'], ...quiet });
    const discovery = await client.discover(manifestUrl);
    expect(discovery.warnings).toEqual([]);
    expect(discovery.tool('list_notes').inputSchema.required).toEqual(['userId']);
    const outcome = await client.call(discovery, { name: 'list_notes', arguments: { userId: 'u-1' } });
    expect(outcome.ok).toBe(true);
    expect(toolRequestLines(server)).toEqual(['GET /users/u-1/notes']);
  });

  it('a resolver for it passes, and the model never sees it', async () => {
    const client = createRcpClient<Ctx>({ resolvers: { userId: (ctx) => ctx.user }, credentials, ...quiet });
    const discovery = await client.discover(manifestUrl);
    expect(discovery.warnings).toEqual([]);
    expect(discovery.tool('list_notes').inputSchema.properties).not.toHaveProperty('userId');
  });

  it('requireResolved: false (client or discover call) is the explicit opt-out: warnings, not an error', async () => {
    const off = createRcpClient({ resolvers: { user: () => 'u-1' }, requireResolved: false, ...quiet });
    expect((await off.discover(manifestUrl)).warnings.map((warning) => warning.path)).toContain('/tools/0/params/0');
    const perCall = createRcpClient({ resolvers: { user: () => 'u-1' }, ...quiet });
    expect((await perCall.discover(manifestUrl, { requireResolved: false })).warnings).toHaveLength(4);
  });

  it('a requireResolved list adds names to the default: identity-looking params stay required', async () => {
    const client = createRcpClient({ resolvers: { user: () => 'u-1' }, requireResolved: ['noteId'], ...quiet });
    expect((await rejectsWith(client.discover(manifestUrl), 'RCP_UNBOUND_PARAM')).param).toBe('userId');
    const listed = createRcpClient({ resolvers: { userId: () => 'u-1' }, requireResolved: ['noteId'], ...quiet });
    const error = await rejectsWith(listed.discover(manifestUrl), 'RCP_UNBOUND_PARAM');
    expect(error).toMatchObject({ tool: 'get_note', param: 'noteId' });
    expect(error.message).toContain('"requireResolved" lists it');
  });

  it('a client with no resolver at all keeps the warning (describe and lint tools, a plain proxy)', async () => {
    const discovery = await createRcpClient(quiet).discover(manifestUrl);
    expect(discovery.warnings.map((warning) => warning.path)).toEqual(['/tools/0/params/0', '/tools/1/params/0', '/tools/2/params/0', '/tools/3/params/0']);
  });
});

describe('onWarning: discovery warnings reach the operator once', () => {
  it('hands each distinct warning and its manifest URL to onWarning once per client, however often it discovers', async () => {
    const seen: { warning: RcpDiscoveryWarning; manifestUrl: string }[] = [];
    const client = createRcpClient({ onWarning: (warning, { manifestUrl: url }) => seen.push({ warning, manifestUrl: url }) });
    const first = await client.discover(manifestUrl);
    await client.discover(manifestUrl);
    await client.load(notesManifest, { manifestUrl });
    expect(seen.map(({ warning }) => warning)).toEqual(first.warnings);
    expect(seen[0]).toMatchObject({ manifestUrl, warning: { tool: 'list_notes', path: '/tools/0/params/0' } });
    // Another client reports them again: the memory is the client's, not the module's.
    const again: RcpDiscoveryWarning[] = [];
    await createRcpClient({ onWarning: (warning) => again.push(warning) }).discover(manifestUrl);
    expect(again).toHaveLength(4);
  });

  it('by default prints one console.warn line per warning, once, with the manifest text made safe', async () => {
    const url = serveManifest(server, {
      rcpVersion: '0.1',
      tools: [{ name: 'list', description: 'Lists.', method: 'GET', url: '/list', 'x-\u001b]0;owned\u0007': true }],
    });
    const printed: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void printed.push(args.join(' '));
    try {
      const client = createRcpClient();
      await client.discover(url);
      await client.discover(url);
    } finally {
      console.warn = original;
    }
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(`rcp-client: warning for ${url} at /tools/0/x-\\x1b]0;owned\\x07`);
    expect(printed[0]).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a throwing or rejecting onWarning never fails the discovery; a non-function is RCP_INVALID_OPTIONS', async () => {
    const throwing = createRcpClient({
      onWarning: () => {
        throw new Error('logger down');
      },
    });
    expect((await throwing.discover(manifestUrl)).tools).toHaveLength(4);
    const rejecting = createRcpClient({ onWarning: (() => Promise.reject(new Error('logger down'))) as never });
    expect((await rejecting.discover(manifestUrl)).tools).toHaveLength(4);
    expect(() => createRcpClient({ onWarning: 'console' as never })).toThrow(/onWarning/);
  });

  it('a discovery that fails reports nothing: the error is the report', async () => {
    const seen: unknown[] = [];
    const client = createRcpClient({ resolvers: { user: () => 'u-1' }, onWarning: (warning) => seen.push(warning) });
    await rejectsWith(client.discover(manifestUrl), 'RCP_UNBOUND_PARAM');
    expect(seen).toEqual([]);
  });
});
