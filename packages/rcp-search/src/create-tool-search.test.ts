import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRcpClient, createToolSet, isRcpError, type RcpDiscovery } from 'rcp-client';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { DEFAULT_SYNONYMS, createToolSearch, describeToolHits, toolSearchDefinition, type RcpToolRanker } from './index';
import { discoverManifest, tool } from './test-tools';

let server: TestServer;
let repo: RcpDiscovery;
beforeAll(async () => {
  server = await startTestServer();
  repo = await discoverManifest(
    server,
    {
      rcpVersion: '0.1',
      tools: [
        tool('listPullRequests', 'Lists the open change proposals of a project.'),
        tool('deleteNote', 'Deletes a note.'),
        tool('getRepository', 'Returns one repository.'),
        tool('createLabel', 'Creates a label.'),
        tool('exportData', 'Starts an export.', [{ name: 'format', type: 'string', description: 'spreadsheet or archive' }]),
        tool('getInvoice', 'Returns an invoice.', [{ name: 'userId', type: 'string', description: 'whose invoice: the verified customer' }]),
      ],
    },
    '/rcp/manifest',
    { resolvers: { userId: () => 'u-1' } },
  );
});
afterAll(async () => {
  await server.close();
});

const names = async (search: ReturnType<typeof createToolSearch>, query: string, limit = 5) => (await search.search(query, { limit })).map((hit) => hit.name);

describe('createToolSearch: what is indexed', () => {
  it('finds a tool by the words of its camelCase name', async () => {
    const search = createToolSearch(repo);
    expect((await names(search, 'pull requests'))[0]).toBe('listPullRequests');
  });

  it('finds a tool by a general synonym of its verb (remove → delete) and by an inflection (repositories → repository)', async () => {
    const search = createToolSearch(repo);
    expect((await names(search, 'remove a note'))[0]).toBe('deleteNote');
    expect((await names(search, 'repositories'))[0]).toBe('getRepository');
    expect(await names(search, 'remove')).toEqual(['deleteNote']);
    expect(await names(createToolSearch(repo, { synonyms: false }), 'remove')).toEqual([]);
    expect(await names(createToolSearch(repo, { stemming: false, prefix: false }), 'repositories')).toEqual([]);
  });

  it('answers a question word with what it asks about (who → user, member, collaborator)', async () => {
    const team = await discoverManifest(
      server,
      { rcpVersion: '0.1', tools: [tool('listCollaborators', 'Lists the collaborators of a project.'), tool('getBuild', 'Returns one build.')] },
      '/rcp/team',
    );
    expect(await names(createToolSearch(team), 'who works on this project')).toEqual(['listCollaborators']);
    expect(await names(createToolSearch(team, { synonyms: false }), 'who works')).toEqual([]);
  });

  it('searches a word that is in more than a tenth of the tools (and in over 100) in tool names only', async () => {
    const tools = Array.from({ length: 150 }, (_, i) => tool(`getWidget${i}`, `Returns widget ${i} with its records.`));
    const big = await discoverManifest(server, { rcpVersion: '0.1', tools: [...tools, tool('listRecords', 'Lists what was stored.')] }, '/rcp/big');
    expect(await names(createToolSearch(big), 'records', 50)).toEqual(['listRecords']);
    expect(await names(createToolSearch(big, { commonWords: 1 }), 'records', 50)).toHaveLength(50);
    expect((await names(createToolSearch(big), 'widget 7 records'))[0]).toBe('getWidget7');
  });

  it('finds a tool by the text of its model-facing params, and never by a resolver-bound one', async () => {
    const search = createToolSearch(repo);
    expect((await names(search, 'spreadsheet'))[0]).toBe('exportData');
    expect(await names(search, 'verified customer')).toEqual([]);
    expect(await names(createToolSearch(repo, { boost: { params: 0 } }), 'spreadsheet')).toEqual([]);
  });

  it('finds a tool by its namespace in a tool set (the prefix of a clashing name, and the manifest host)', async () => {
    const learn = await discoverManifest(server, { rcpVersion: '0.1', tools: [tool('search', 'Search the catalog.')] }, '/learn/manifest');
    const shop = await discoverManifest(server, { rcpVersion: '0.1', tools: [tool('search', 'Search the catalog.')] }, '/shop/manifest');
    const toolSet = createToolSet([learn, shop], { namespace: (_discovery, index) => ['learn', 'shop'][index]! });
    const search = createToolSearch(toolSet);
    expect(await names(search, 'search the shop catalog')).toEqual(['shop__search', 'learn__search']);
    expect(await names(search, 'learn')).toEqual(['learn__search']);
    expect(await names(createToolSearch(toolSet, { boost: { namespace: 0 } }), 'learn')).toEqual([]);
  });

  it("finds a tool by its group's name and description (RCP 0.4 groups, an OpenAPI tag's text), not by another group's", async () => {
    const billing = await discoverManifest(
      server,
      {
        rcpVersion: '0.4',
        groups: [
          { name: 'payouts', description: 'Money sent from the balance to a bank account.' },
          { name: 'disputes', description: 'A customer questions a charge with their card issuer.' },
        ],
        tools: [
          { ...tool('listPayouts', 'Lists items.'), group: 'payouts' },
          { ...tool('closeDispute', 'Closes one.'), group: 'disputes' },
          tool('getBalance', 'Returns the balance.'),
        ],
      },
      '/rcp/billing',
    );
    expect((await names(createToolSearch(billing), 'bank account transfers'))[0]).toBe('listPayouts');
    expect(await names(createToolSearch(billing), 'card issuer')).toEqual(['closeDispute']);
    expect(await names(createToolSearch(billing, { boost: { group: 0 } }), 'card issuer')).toEqual([]);
  });

  it('is deterministic: the same query gives the same hits, ties in tool-set order; each instance keeps its own index', async () => {
    const search = createToolSearch(repo);
    const first = await search.search('get');
    expect(await search.search('get')).toEqual(first);
    expect(first.map((hit) => hit.name)).toEqual(['getRepository', 'getInvoice']);
    const custom = createToolSearch(repo, { synonyms: [['receipt', 'invoice'], ...DEFAULT_SYNONYMS] });
    expect((await names(custom, 'receipt'))[0]).toBe('getInvoice');
    expect(await names(search, 'receipt')).toEqual([]);
  });

  it('gives hits of the tool set: its names and its frozen tools, at most `limit`', async () => {
    const search = createToolSearch(repo);
    const hits = await search.search('creates exports deletes', { limit: 2 });
    expect(hits).toHaveLength(2);
    for (const hit of hits) expect(hit.tool).toBe(repo.tool(hit.name));
    expect(Object.isFrozen(hits)).toBe(true);
    expect(await search.search('the of a')).toEqual([]);
  });
});

describe('createToolSearch: name coverage', () => {
  it("multiplies each candidate's score by 1 + the share of its name's words that the query says", async () => {
    const files = await discoverManifest(
      server,
      {
        rcpVersion: '0.1',
        tools: [
          tool('deleteRepositoryFile', 'Deletes a file from a repository.'),
          tool('deleteRepository', 'For good.'),
          tool('getNote', 'Returns a note.'),
          tool('listUsers', 'Lists the users.'),
        ],
      },
      '/files/manifest',
    );
    const plain = await createToolSearch(files, { nameCoverage: false }).search('remove a repository');
    const covered = await createToolSearch(files).search('remove a repository');
    const scoreOf = (hits: typeof plain, name: string) => hits.find((hit) => hit.name === name)!.score;
    expect(scoreOf(covered, 'deleteRepository') / scoreOf(plain, 'deleteRepository')).toBeCloseTo(2); // delete, repository: both said
    expect(scoreOf(covered, 'deleteRepositoryFile') / scoreOf(plain, 'deleteRepositoryFile')).toBeCloseTo(5 / 3); // file is not
  });
});

describe('createToolSearch: the ranking hook', () => {
  it('reorders the candidates, may add a name of the set, and never one outside it', async () => {
    const seen: string[][] = [];
    const rank: RcpToolRanker = async (_query, candidates) => {
      seen.push(candidates.map((hit) => hit.name));
      return ['createLabel', ...candidates.map((hit) => hit.name)];
    };
    const search = createToolSearch(repo, { rank, candidates: 3 });
    const hits = await search.search('note', { limit: 2 });
    expect(hits.map((hit) => hit.name)).toEqual(['createLabel', 'deleteNote']);
    expect(hits[0]!.score).toBe(0);
    expect(seen).toEqual([['deleteNote']]);
    const widening = createToolSearch(repo, { rank: () => ['transferFunds'] });
    await expect(widening.search('note')).rejects.toMatchObject({ code: 'RCP_UNKNOWN_TOOL' });
    const broken = createToolSearch(repo, { rank: () => 'deleteNote' as never });
    await expect(broken.search('note')).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
  });
});

describe('createToolSearch: bad input', () => {
  it('refuses bad options when built and bad queries when searching, with typed errors', async () => {
    const invalid = expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' });
    expect(() => createToolSearch(repo, null as never)).toThrow(invalid);
    expect(() => createToolSearch(repo, { boost: { title: 2 } as never })).toThrow(/unknown field "title"/);
    expect(() => createToolSearch(repo, { boost: { name: -1 } })).toThrow(invalid);
    expect(() => createToolSearch(repo, { boost: { name: 0, namespace: 0, description: 0, params: 0, group: 0, method: 0 } })).toThrow(/no field/);
    expect(() => createToolSearch(repo, { synonyms: [['two words']] })).toThrow(/synonyms\[0\]/);
    expect(() => createToolSearch(repo, { synonyms: 'yes' as never })).toThrow(invalid);
    expect(() => createToolSearch(repo, { rank: 'mine' as never })).toThrow(invalid);
    expect(() => createToolSearch(repo, { candidates: 0 })).toThrow(invalid);
    expect(() => createToolSearch(repo, { commonWords: 0 })).toThrow(/commonWords/);
    expect(() => createToolSearch(repo, { commonWords: 1.5 })).toThrow(invalid);
    expect(() => createToolSearch({} as never)).toThrow(invalid);
    const search = createToolSearch(repo);
    await expect(search.search(42 as never)).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    await expect(search.search('note', { limit: 0 })).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
    await expect(search.search('note', { limit: 51 })).rejects.toMatchObject({ code: 'RCP_INVALID_OPTIONS' });
  });
});

describe('the search tool', () => {
  it('is defined with a query and an optional limit, and answers with the hits as the model reads them', async () => {
    const definition = toolSearchDefinition({ toolCount: 6 });
    expect(definition.name).toBe('search_tools');
    expect(definition.description).toContain('among 6 available tools');
    expect(definition.inputSchema.required).toEqual(['query']);
    const search = createToolSearch(repo);
    const answer = await search.handleCall('{"query":"invoice","limit":1}');
    // Compact (issue 41): the name, one line, the model-facing param names; the resolver-bound userId is not one.
    expect(answer.tools).toEqual([{ name: 'getInvoice', description: 'Returns an invoice.', params: [] }]);
    expect(JSON.parse(answer.text)).toEqual({ tools: answer.tools });
    expect(describeToolHits([])).toEqual({ tools: [], text: '{"tools":[]}' });
    expect(definition.description).toContain('its param names (required ones marked)');
  });

  it('with inputSchemas: true, the whole description and the model-facing input schema (a loop with no describe step)', async () => {
    const search = createToolSearch(repo, { inputSchemas: true });
    const answer = await search.handleCall({ query: 'invoice', limit: 1 });
    expect(answer.tools).toEqual([{ name: 'getInvoice', description: 'Returns an invoice.', inputSchema: repo.tool('getInvoice').inputSchema }]);
    expect(answer.tools[0]!.inputSchema!.properties).not.toHaveProperty('userId');
    expect(toolSearchDefinition({ inputSchemas: true }).description).toContain('with their input schemas');
    expect(() => createToolSearch(repo, { inputSchemas: 'yes' as never })).toThrow(expect.objectContaining({ code: 'RCP_INVALID_OPTIONS' }));
  });

  it('a compact line: the first sentence of the first paragraph, white space collapsed, at most 160 characters; required params marked', async () => {
    const client = createRcpClient({ onWarning: () => {} });
    const long = 'Word '.repeat(60).trim();
    const discovery = await client.load(
      {
        rcpVersion: '0.1',
        tools: [
          {
            name: 'createRefund',
            description: 'Create a refund.\nRefunds a charge made earlier (e.g. by mistake).\n\nWhen you create a refund, v1.5 rules apply.',
            method: 'POST',
            url: 'https://api.example.com/refunds',
            params: [
              { name: 'charge', type: 'string', required: true },
              { name: 'amount', type: 'integer' },
            ],
            body: { charge: '{{charge}}', amount: '{{amount}}' },
          },
          { name: 'longOne', description: `${long}.`, method: 'GET', url: 'https://api.example.com/long' },
        ],
      },
      { manifestUrl: 'https://api.example.com/manifest' },
    );
    const hits = [
      { name: 'createRefund', score: 1, tool: discovery.tool('createRefund') },
      { name: 'longOne', score: 1, tool: discovery.tool('longOne') },
    ];
    expect(describeToolHits(hits).tools).toEqual([
      { name: 'createRefund', description: 'Create a refund.', params: ['charge (required)', 'amount'] },
      { name: 'longOne', description: `${long.slice(0, 159)}…`, params: [] },
    ]);
  });

  it('refuses arguments that do not match its schema with RCP_INVALID_ARGUMENTS, listing each problem', async () => {
    const search = createToolSearch(repo);
    const refused = async (args: unknown) => {
      try {
        await search.handleCall(args);
      } catch (error) {
        if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) return error.issues.map((issue) => `${issue.path} ${issue.message}`);
        throw error;
      }
      throw new Error('accepted');
    };
    expect(await refused('not json')).toEqual([' are not valid JSON']);
    expect(await refused(' ')).toEqual(['/query is required']);
    expect(await refused([])).toEqual([' must be an object (got array)']);
    expect(await refused({ limit: 99, extra: true })).toEqual(['/limit must be ≤ 50', '/extra is not a parameter of this tool', '/query is required']);
    expect(await refused({ query: 3 })).toEqual(['/query must be a string (got integer)']);
    expect(await refused({ query: 'x', limit: 2.5 })).toEqual(['/limit must be a safe integer (got number)']);
    // A key with '/' or '~' is named by an escaped JSON Pointer (the model chose it).
    expect(await refused({ query: 'x', 'a/b~c': 1 })).toEqual(['/a~1b~0c is not a parameter of this tool']);
  });
});
