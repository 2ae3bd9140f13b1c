import { describe, expect, it } from 'vitest';
import { isRcpError } from 'rcp-errors';
import { createRcpServer, defineTool } from './index';

const handler = () => ({});
const tool = (overrides: Record<string, unknown>) =>
  defineTool({ name: 'get_thing', description: 'Gets a thing.', method: 'GET', path: '/things/{{id}}', params: [{ name: 'id' }], handler, ...overrides });

function creationError(options: Parameters<typeof createRcpServer>[0]) {
  try {
    createRcpServer(options);
  } catch (error) {
    return error;
  }
  throw new Error('createRcpServer did not throw');
}

describe('a bad definition is an RcpError at creation, never a manifest served wrong', () => {
  it('checks the manifest with parseManifest: every problem at its pointer', () => {
    const error = creationError({ tools: [tool({ name: 'bad name!' }), tool({ path: '/things/{{other}}' })] });
    expect(isRcpError(error, 'RCP_INVALID_MANIFEST')).toBe(true);
    expect((error as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual(['/tools/0/name', '/tools/1/url']);
  });

  it('refuses a value detail that does not fit its type, and a duplicate name regardless of case', () => {
    const error = creationError({ tools: [tool({ params: [{ name: 'id', type: 'integer', minLength: 2 }] }), tool({ name: 'GET_THING' })] });
    expect((error as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual(['/tools/0/params/0/minLength', '/tools/1/name']);
  });

  it.each([
    ['two tokens in one segment', { path: '/things/{{id}}-{{id}}' }, 'one {{token}} at most'],
    ['an absolute URL (a server serves its own paths)', { path: 'https://api.example.com/things/{{id}}' }, 'must be a path'],
    ['no handler', { handler: undefined }, 'has no handler'],
    ['a bound param without auth', { params: [{ name: 'id', bound: () => 'x' }] }, 'auth is "none"'],
  ])('refuses %s (RCP_INVALID_OPTIONS)', (_what, overrides, message) => {
    const error = creationError({ tools: [tool(overrides)] });
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  it('takes tools as a list or as a function of defineTool; a function that returns no list is refused', () => {
    const made = createRcpServer({ tools: (define) => [define({ name: 'get_thing', description: 'Gets a thing.', method: 'GET', path: '/things', handler })] });
    expect(made.manifest.tools.map((served) => served.name)).toEqual(['get_thing']);
    const error = creationError({ tools: (() => undefined) as never });
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain('"tools" must be a list of tools, or a function returning one');
  });

  it('needs a verify hook when a tool needs a credential', () => {
    const error = creationError({ auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, tools: [tool({})] });
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
  });

  it('says 0.2 only when a tool uses what 0.2 adds to the wire', () => {
    expect(createRcpServer({ tools: [tool({})] }).manifest.rcpVersion).toBe('0.1');
    const form = tool({ method: 'POST', path: '/things', params: [{ name: 'id' }], bodyEncoding: 'form', body: { id: '{{id}}' } });
    expect(createRcpServer({ tools: [form] }).manifest.rcpVersion).toBe('0.2');
  });
});

describe('the fetch core runs on any runtime with Request and Response', () => {
  it('answers a tool, the manifest, and a 404 problem for anything else', async () => {
    const server = createRcpServer({ tools: [tool({ handler: ({ values }: { values: Record<string, unknown> }) => ({ id: values.id }) })] });
    expect(await (await server.fetch(new Request('http://api.test/things/a%20b'))).json()).toEqual({ id: 'a b' });
    expect((await server.fetch(new Request('http://api.test/rcp/manifest', { method: 'HEAD' }))).status).toBe(200);
    const missing = await server.fetch(new Request('http://api.test/nothing'));
    expect(missing.status).toBe(404);
    expect(await server.handle(new Request('http://api.test/nothing'))).toBeUndefined();
  });
});
