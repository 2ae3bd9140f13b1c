/**
 * The README's embeddings example (examples/embeddings-rank.ts, the README block's file) against a loopback fake of an
 * OpenAI-compatible embeddings API: a real `node:http` server whose vectors are a bag of words over a few "meanings",
 * so `cash` is close to `funds` and `balance` though no word is shared. What the fake received is the proof of the
 * caching; the search is rcp-search's own over a tool set discovered from the same server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolSet, type RcpToolSet } from 'rcp-client';
import { sendJson, startTestServer, type RecordedRequest, type TestServer } from 'rcp-test-utils';
import { embeddingRanker } from '../examples/embeddings-rank';
import { createToolSearch } from './index';
import { discoverManifest, tool } from './test-tools';

/** The fake's meanings: each word of a group adds 1 to its dimension; any other word adds to none. */
const MEANINGS: readonly (readonly string[])[] = [
  ['cash', 'funds', 'balance', 'money'],
  ['hold', 'available', 'have'],
  ['invoice', 'invoices', 'bill'],
  ['refund', 'refunds', 'back'],
  ['payout', 'payouts', 'bank', 'transfers'],
  ['customer', 'customers', 'buyer'],
];
const API_KEY = 'sk-test-embeddings';

/** A vector per text: its words counted by meaning, plus a small constant so no vector is zero. */
function fakeEmbedding(text: string): number[] {
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return [0.05, ...MEANINGS.map((group) => words.filter((word) => group.includes(word)).length)];
}

let server: TestServer;
/** What the fake does instead of answering: an error status, or one vector fewer than it was asked for. */
let fault: number | 'one vector short' | undefined;
let toolSet: RcpToolSet;
const embeddingsRequests = (): { authorization: unknown; model: unknown; input: unknown }[] =>
  server.requests
    .filter((request: RecordedRequest) => request.path === '/v1/embeddings')
    .map(({ headers, json }) => ({ authorization: headers.authorization, ...(json as { model: unknown; input: unknown }) }));

beforeAll(async () => {
  server = await startTestServer({
    'POST /v1/embeddings': (request, res) => {
      if (typeof fault === 'number') return sendJson(res, fault, { error: { message: 'overloaded' } });
      const { input } = request.json as { input: string[] };
      const answered = fault === 'one vector short' ? input.slice(1) : input;
      sendJson(res, 200, {
        object: 'list',
        model: 'fake-embeddings',
        data: answered.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      });
    },
  });
  const discovery = await discoverManifest(server, {
    rcpVersion: '0.1',
    tools: [
      tool('getBalance', 'Returns the funds available on the account.'),
      tool('listInvoices', 'Lists the invoices of the account.'),
      tool('createRefund', 'Gives a charge back to the payer.'),
      tool('listPayouts', 'Lists the transfers to the bank account.'),
      tool('listCustomers', 'Lists the customers of the account.'),
      tool('getWeather', 'Returns the forecast for a city.'),
    ],
  });
  toolSet = createToolSet(discovery);
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  fault = undefined;
  server.reset();
});

const rankerFor = (errors: unknown[] = []) =>
  embeddingRanker({ baseUrl: server.url('/v1/'), model: 'fake-embeddings', apiKey: API_KEY, onError: (error) => errors.push(error) });
const texts = () => toolSet.entries.map(({ name, tool: { description } }) => `${name}: ${description}`);
/** The requests in a stable order: a search sends its tool texts and its query at once, so they may arrive either way. */
const sorted = <T>(items: readonly T[]) => [...items].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
/** How many texts each embeddings request held, in a stable order. */
const inputSizes = () => embeddingsRequests().map(({ input }) => (input as string[]).length);

describe('the README embeddings example (rank hook)', () => {
  it('requests the tool vectors once for two searches over one tool set, and embeds each query', async () => {
    const search = createToolSearch(toolSet, { rank: rankerFor() });
    await search.search('list my invoices');
    await search.search('how much cash do I hold');
    expect(sorted(embeddingsRequests())).toEqual(
      sorted([
        { authorization: `Bearer ${API_KEY}`, model: 'fake-embeddings', input: texts() },
        { authorization: `Bearer ${API_KEY}`, model: 'fake-embeddings', input: ['list my invoices'] },
        { authorization: `Bearer ${API_KEY}`, model: 'fake-embeddings', input: ['how much cash do I hold'] },
      ]),
    );
  });

  it('requests them once when two first searches run at the same time, and again for another tool set', async () => {
    const rank = rankerFor();
    const search = createToolSearch(toolSet, { rank });
    await Promise.all([search.search('list my invoices'), search.search('refund a charge')]);
    const other = toolSet.select((_tool, name) => name !== 'getWeather');
    await createToolSearch(other, { rank }).search('list my invoices');
    expect(inputSizes().sort()).toEqual([1, 1, 1, 5, 6]);
  });

  it('finds a tool by meaning for a query that shares no word with it (lexical search alone finds nothing)', async () => {
    const query = 'how much cash do I hold';
    expect(await createToolSearch(toolSet).search(query)).toEqual([]);
    const hits = await createToolSearch(toolSet, { rank: rankerFor() }).search(query, { limit: 3 });
    expect(hits[0]?.name).toBe('getBalance');
    expect(hits).toHaveLength(3);
  });

  it('keeps a lexical hit that the meanings also rank first at the top', async () => {
    const hits = await createToolSearch(toolSet, { rank: rankerFor() }).search('list the invoices');
    expect(hits[0]?.name).toBe('listInvoices');
  });

  it('falls back to the lexical ranking when the API fails, tells onError, and asks again on the next search', async () => {
    const errors: unknown[] = [];
    const search = createToolSearch(toolSet, { rank: rankerFor(errors) });
    const lexical = (await createToolSearch(toolSet).search('list the payouts to the bank')).map((hit) => hit.name);
    expect(lexical).not.toEqual([]);
    fault = 503;
    expect((await search.search('list the payouts to the bank')).map((hit) => hit.name)).toEqual(lexical);
    expect(errors.map((error) => (error as Error).message)).toEqual(['the embeddings API answered 503']);
    expect(inputSizes().sort()).toEqual([1, 6]); // the tool texts and the query, both refused
    fault = undefined;
    expect((await search.search('how much cash do I hold'))[0]?.name).toBe('getBalance');
    expect(inputSizes().sort()).toEqual([1, 1, 6, 6]); // the failed vectors were not kept
  });

  it('falls back when the API answers a vector short', async () => {
    const errors: unknown[] = [];
    fault = 'one vector short';
    const hits = await createToolSearch(toolSet, { rank: rankerFor(errors) }).search('list the invoices');
    expect(hits[0]?.name).toBe('listInvoices');
    expect((errors[0] as Error).message).toBe('the embeddings API did not answer one vector of one size for each of the 6 texts');
  });
});
