import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient, createToolSet, toModelResult, toolCountWarning } from 'rcp-client';
import { rejectsWith, serveManifest } from './internal/testing';

const manifest = (tools: string[]) => ({
  rcpVersion: '0.1',
  tools: tools.map((name) => ({ name, description: `The ${name} tool.`, method: 'GET', url: `/${name}` })),
});

let learn: TestServer;
let shop: TestServer;
beforeEach(async () => {
  learn = await startTestServer();
  shop = await startTestServer();
  learn.route('GET /search', (_request, res) => sendJson(res, 200, { from: 'learn' }));
  shop.route('GET /search', (_request, res) => sendJson(res, 200, { from: 'shop' }));
});
afterEach(async () => {
  await Promise.all([learn.close(), shop.close()]);
});

async function discoveries() {
  const client = createRcpClient();
  const a = await client.discover(serveManifest(learn, manifest(['search', 'get_course'])));
  const b = await client.discover(serveManifest(shop, manifest(['search', 'checkout'])));
  learn.reset();
  shop.reset();
  return { client, a, b };
}

describe('createToolSet', () => {
  it('namespaces a clashing name in every discovery, keeps unique names, and call() routes by those names', async () => {
    const { client, a, b } = await discoveries();
    const set = createToolSet([a, b], { namespace: (_discovery, index) => ['learn', 'shop'][index]! });
    expect(set.names).toEqual(['learn__search', 'get_course', 'shop__search', 'checkout']);
    expect(Object.isFrozen(set) && Object.isFrozen(set.entries)).toBe(true);
    const outcome = await client.call(set, { name: 'shop__search', arguments: '{}' });
    expect(toModelResult(outcome)).toEqual({ ok: true, data: { from: 'shop' } });
    expect([learn.count, shop.count]).toEqual([0, 1]);
    const unknown = await client.call(set, { name: 'search', arguments: '{}' });
    expect(unknown.ok === false && unknown.error.message).toBe('Unknown tool "search". Available tools: learn__search, get_course, shop__search, checkout.');
    expect([learn.count, shop.count]).toEqual([0, 1]);
  });

  it('the default namespace is the manifest host', async () => {
    const { a, b } = await discoveries();
    const hostOf = (server: TestServer) => new URL(server.origin).host.replace(/[.:]/g, '_');
    expect(createToolSet([a, b]).names).toEqual([`${hostOf(learn)}__search`, 'get_course', `${hostOf(shop)}__search`, 'checkout']);
  });

  it('selects a subset by names (set or tool names) or a predicate; a stage never reaches other tools', async () => {
    const { client, a, b } = await discoveries();
    const set = createToolSet([a, b], { namespace: (_discovery, index) => ['learn', 'shop'][index]! });
    expect(set.select(['get_course', 'search']).names).toEqual(['learn__search', 'get_course', 'shop__search']);
    expect(set.select((tool) => tool.name !== 'search').names).toEqual(['get_course', 'checkout']);
    expect(createToolSet(set, { only: ['checkout'] }).names).toEqual(['checkout']);
    expect(() => set.select(['nope'])).toThrow(/Unknown tool "nope"/);
    const browse = set.select(['get_course']);
    const outcome = await client.call(browse, { name: 'shop__search', arguments: {} });
    expect(outcome.ok).toBe(false);
    expect([learn.count, shop.count]).toEqual([0, 0]);
  });

  it('refuses what is not a discovery, and a namespace that breaks the name grammar', async () => {
    const { a, b } = await discoveries();
    expect(() => createToolSet({} as never)).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    expect(() => createToolSet([a, b], { namespace: () => 'no spaces' })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    expect(() => createToolSet([a, b], { namespace: () => 'x'.repeat(60) })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_TOOL' }));
    // A namespace is checked by the one tool-name rule (rcp-manifest's isToolName), length included.
    expect(() => createToolSet([a, b], { namespace: () => 'x'.repeat(70) })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
    await rejectsWith(() => createToolSet([a, a]), 'RCP_INVALID_TOOL');
  });

  it('toolCountWarning speaks past a limit only', async () => {
    const { a } = await discoveries();
    const set = createToolSet(a);
    expect(toolCountWarning(set, { limit: 2, target: 'OpenAI' })).toBeUndefined();
    expect(toolCountWarning(set, { limit: 1, target: 'OpenAI' })).toBe(
      'OpenAI accepts at most 1 tools; this set has 2: select fewer (createToolSet(..., { only }), or a stage)',
    );
  });
});

describe('stages: a subset knows the whole set', () => {
  it('a call to a tool of the whole set that the stage left out is RCP_TOOL_NOT_IN_STAGE, with one message; nothing is sent', async () => {
    const { client, a } = await discoveries();
    const whole = createToolSet(a);
    const browse = whole.select(['search'], { stage: 'browse' });
    expect(browse.stage).toBe('browse');
    const outcome = await client.call(browse, { name: 'get_course', arguments: {} });
    expect(toModelResult(outcome)).toEqual({
      ok: false,
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "get_course" is not available in stage "browse".' },
    });
    expect(toModelResult(await client.call(whole.select([]), { name: 'get_course' }))).toMatchObject({
      error: { code: 'RCP_TOOL_NOT_IN_STAGE', message: 'Tool "get_course" is not available in this stage.' },
    });
    // A name of no tool at all is still unknown; a subset of a subset keeps the whole set.
    expect(toModelResult(await client.call(browse, { name: 'nope' }))).toMatchObject({ error: { code: 'RCP_UNKNOWN_TOOL' } });
    expect(toModelResult(await client.call(browse.select([], { stage: 'none' }), { name: 'get_course' }))).toMatchObject({
      error: { message: 'Tool "get_course" is not available in stage "none".' },
    });
    await rejectsWith(async () => browse.tool('get_course'), 'RCP_TOOL_NOT_IN_STAGE');
    expect(learn.count).toBe(0);
    expect(() => whole.select([], { stage: 7 as never })).toThrow(/stage/);
  });
});

describe("toolSet.warnings: the discoveries' warnings about what a set serves, one home for every adapter", () => {
  it("keeps a manifest's own warnings and those of its tools; a subset drops the warnings of the tools it left out", async () => {
    const client = createRcpClient({ onWarning: () => {} });
    const discovery = await client.discover(
      serveManifest(learn, {
        rcpVersion: '0.1',
        extra: true,
        tools: [
          { name: 'search', description: 'Search.', method: 'GET', url: '/search', colour: 'red' },
          { name: 'get_course', description: 'A course.', method: 'GET', url: '/course', size: 1 },
        ],
      }),
    );
    const set = createToolSet(discovery);
    expect(set.warnings).toEqual(discovery.warnings.map((warning) => `${warning.path}: ${warning.message}`));
    expect(set.warnings.map((line) => line.split(':')[0])).toEqual(['/extra', '/tools/0/colour', '/tools/1/size']);
    expect(Object.isFrozen(set.warnings)).toBe(true);
    const browse = set.select(['get_course'], { stage: 'browse' });
    expect(browse.warnings.map((line) => line.split(':')[0])).toEqual(['/extra', '/tools/1/size']);
    expect(createToolSet(set, { only: ['search'] }).warnings.map((line) => line.split(':')[0])).toEqual(['/extra', '/tools/0/colour']);
    const { a, b } = await discoveries();
    expect(createToolSet([a, b]).warnings).toEqual([]);
  });
});
