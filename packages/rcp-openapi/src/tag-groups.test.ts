import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifest } from 'rcp-manifest';
import { fromOpenApi, formatSummary } from './index';

/** Issue 41: OpenAPI tags become RCP 0.4 tool groups (SPEC §20.3). */
const operation = (operationId: string, tags?: unknown) => ({
  operationId,
  summary: `${operationId}.`,
  ...(tags !== undefined && { tags }),
  responses: { '200': { description: 'ok' } },
});

const document = {
  openapi: '3.0.3',
  info: { title: 'Billing', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  tags: [
    { name: 'Customers', description: '<p>People &amp; companies who <b>pay</b>.</p>' },
    { name: 'Unused', description: 'No operation has it.' },
    { name: 'Invoices', description: `Invoices. ${'word '.repeat(400)}` },
  ],
  paths: {
    '/invoices': { get: operation('ListInvoices', ['Invoices', 'Customers']), post: operation('CreateInvoice', ['Invoices']) },
    '/customers': { get: operation('ListCustomers', ['Customers']) },
    '/refunds': { get: operation('ListRefunds', ['Refunds & Disputes']) },
    '/disputes': { get: operation('ListDisputes', ['refunds-disputes']) },
    '/balance': { get: operation('GetBalance') },
  },
};

describe('groups from OpenAPI tags', () => {
  it('makes one group per first tag of an imported operation, described by the document’s tag, and a 0.4 manifest', async () => {
    const { manifest, report } = await fromOpenApi(document);
    expect(manifest.rcpVersion).toBe('0.4');
    // The document's tags order first (an unused tag makes no group), then first use; names written as tool names.
    expect(manifest.groups?.map((group) => group.name)).toEqual(['Customers', 'Invoices', 'Refunds_Disputes', 'refunds-disputes']);
    expect(manifest.groups?.[0]).toEqual({ name: 'Customers', description: 'People & companies who pay.' });
    // A long description is cut like a tool's (1,024 characters, at a word, with an ellipsis).
    const invoices = manifest.groups?.[1]?.description ?? '';
    expect(invoices.length).toBeLessThanOrEqual(1_024);
    expect(invoices.startsWith('Invoices. word word')).toBe(true);
    expect(invoices.endsWith('…')).toBe(true);
    // A tag without a description (none in the document's list) makes a group without one.
    expect(manifest.groups?.[2]).toEqual({ name: 'Refunds_Disputes' });
    expect(Object.fromEntries(manifest.tools.map((tool) => [tool.name, tool.group]))).toEqual({
      ListInvoices: 'Invoices', // the first tag only
      CreateInvoice: 'Invoices',
      ListCustomers: 'Customers',
      ListRefunds: 'Refunds_Disputes',
      ListDisputes: 'refunds-disputes',
      GetBalance: undefined, // no tag, no group
    });
    // What rcp-manifest accepts as it is.
    expect(parseManifest(JSON.parse(JSON.stringify(manifest)))).toEqual(manifest);
    expect(report.summary.groups).toBe(4);
    expect(formatSummary(report)).toContain('  4 tool group(s), one per first tag of the imported operations');
    const notes = Object.fromEntries(report.notes.map((note) => [note.message, note.tools]));
    expect(notes['HTML in descriptions was read as plain text (tags dropped, entities decoded; Markdown kept)']).toEqual(['ListCustomers']);
    expect(notes['a group description was cut to 1,024 characters']).toEqual(['ListInvoices', 'CreateInvoice']);
  });

  it('gives a tag whose name another tag took (regardless of case) a hashed name, so both stay groups', async () => {
    const { manifest } = await fromOpenApi({
      ...document,
      tags: [],
      paths: { '/a': { get: operation('A', ['pets']) }, '/b': { get: operation('B', ['Pets']) } },
    });
    const names = manifest.groups?.map((group) => group.name) ?? [];
    expect(names[0]).toBe('pets');
    expect(names[1]).toMatch(/^Pets_[0-9a-z]{6}$/);
    expect(manifest.tools.map((tool) => tool.group)).toEqual(names);
  });

  it('leaves a manifest without tags as it was: no groups, the lowest version its tools need', async () => {
    const { manifest, report } = await fromOpenApi({ ...document, tags: undefined, paths: { '/balance': { get: operation('GetBalance') } } });
    expect(manifest.rcpVersion).toBe('0.1');
    expect(manifest).not.toHaveProperty('groups');
    expect(report.summary.groups).toBe(0);
    expect(formatSummary(report)).not.toContain('group');
  });

  it('reads the tags of a real document (USPTO, test-data)', async () => {
    const { manifest } = await fromOpenApi(readFileSync(new URL('../test-data/v3.0-uspto.yaml', import.meta.url), 'utf8'));
    expect(manifest.groups).toEqual([
      { name: 'metadata', description: 'Find out about the data sets' },
      { name: 'search', description: 'Search a data set' },
    ]);
    expect(manifest.tools.every((tool) => tool.group === 'metadata' || tool.group === 'search')).toBe(true);
  });
});
