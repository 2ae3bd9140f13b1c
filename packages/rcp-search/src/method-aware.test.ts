import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RcpDiscovery } from 'rcp-client';
import type { RcpManifest } from 'rcp-manifest';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createToolSearch } from './index';
import { discoverManifest } from './test-tools';

/**
 * Issue 41, item 4: on Stripe's import, "list the invoices of a customer" put a write
 * (`PostCustomersCustomer`) first. A read question prefers reads, and a write is never first for
 * it unless its name says the question's read verb.
 */

type Tool = RcpManifest['tools'][number];
const tool = (method: Tool['method'], name: string, description: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  description,
  method,
  url: `/api/${name}`,
  ...extra,
});

let server: TestServer;
let billing: RcpDiscovery;
beforeAll(async () => {
  server = await startTestServer();
  billing = await discoverManifest(server, {
    rcpVersion: '0.3',
    tools: [
      tool('POST', 'updateCustomerInvoiceSettings', "Updates a customer's invoice settings: the customer's default invoice footer and fields."),
      tool('DELETE', 'deleteCustomerInvoiceItems', "Deletes the pending invoice items of a customer's invoices."),
      tool('GET', 'listInvoices', 'Lists invoices, newest first; filter by customer.'),
      tool('POST', 'searchCustomerInvoices', "Searches a customer's invoices with a query language (POST: the query is a body)."),
      tool('POST', 'queryBalance', 'Returns the balance of the account.', { effects: { readOnly: true } }),
      tool('POST', 'updateBalanceSettings', 'Changes how much money the balance keeps in reserve.'),
    ],
  });
});
afterAll(async () => {
  await server.close();
});

const names = async (query: string, options = {}) => (await createToolSearch(billing, options).search(query)).map((hit) => hit.name);

describe('method-aware ranking', () => {
  it('a read question puts a read first where the lexical order put writes first', async () => {
    const [lexicalFirst] = await createToolSearch(billing, { methodAware: false }).search('see the invoices of a customer');
    expect(lexicalFirst!.tool.effects.readOnly).toBe(false);
    const ranked = await names('see the invoices of a customer');
    expect(ranked[0]).toBe('listInvoices');
    expect(ranked).toContain(lexicalFirst!.name);
  });

  it('a write whose name says the read verb stays where it is ("find" → searchCustomerInvoices)', async () => {
    expect((await names('find the invoices of a customer'))[0]).toBe('searchCustomerInvoices');
  });

  it('a question with no verb prefers reads; a POST the manifest declares read-only is a read', async () => {
    expect((await names('how much money is in the balance', { methodAware: false }))[0]).toBe('updateBalanceSettings');
    expect((await names('how much money is in the balance'))[0]).toBe('queryBalance');
  });

  it('a question that asks for a change keeps the lexical order', async () => {
    expect(await names('update the invoice settings of a customer')).toEqual(await names('update the invoice settings of a customer', { methodAware: false }));
  });

  it('scores stay in rank order, and a ranker sees the reordered candidates', async () => {
    const hits = await createToolSearch(billing).search('see the invoices of a customer');
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a));
    let seen: string[] = [];
    const search = createToolSearch(billing, {
      rank: (_query, candidates) => {
        seen = candidates.map((hit) => hit.name);
        return seen;
      },
    });
    await search.search('see the invoices of a customer');
    expect(seen[0]).toBe('listInvoices');
  });
});
