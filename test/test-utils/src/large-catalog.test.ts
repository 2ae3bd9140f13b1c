import { describe, expect, it } from 'vitest';
import { LARGE_CATALOG_SIZE, largeCatalogManifest, largeCatalogOpenApi } from './index';

describe('the large catalog', () => {
  it('has 500 tools with distinct names, the same in both forms', () => {
    const { tools } = largeCatalogManifest();
    expect(LARGE_CATALOG_SIZE).toBe(500);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(500);
    const operations = Object.values(
      largeCatalogOpenApi('http://127.0.0.1:1').paths as Record<string, Record<string, { operationId: string; summary: string }>>,
    ).flatMap((item) => Object.entries(item).map(([method, { operationId, summary }]) => `${method.toUpperCase()} ${operationId} ${summary}`));
    expect(operations).toEqual(tools.map((tool) => `${tool.method} ${tool.name} ${tool.description}`));
  });

  it('is a fresh object per call', () => {
    expect(largeCatalogManifest()).not.toBe(largeCatalogManifest());
    expect(largeCatalogManifest().tools.find((tool) => tool.name === 'createRefund')).toEqual({
      name: 'createRefund',
      description: 'Creates a refund',
      method: 'POST',
      url: '/v1/users/{{userId}}/refunds/create',
      params: [
        { name: 'userId', required: true },
        { name: 'note', required: true, description: 'Text kept with the refund' },
      ],
      body: { note: '{{note}}' },
    });
  });
});
