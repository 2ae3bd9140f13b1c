import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANIFEST_SCHEMA_ID, manifestJsonSchema } from './internal/manifest-json-schema';

const shipped = JSON.parse(readFileSync(new URL('../rcp-manifest.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

describe('rcp-manifest.schema.json', () => {
  it('is exactly what the TypeBox schema generates now (run `pnpm build` to refresh it)', () => {
    expect(shipped).toEqual(manifestJsonSchema());
  });

  it('is a draft-07 document with an $id, a title and field descriptions', () => {
    expect(shipped['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    expect(shipped['$id']).toBe(MANIFEST_SCHEMA_ID);
    expect(shipped['title']).toBe('RCP manifest');
    const tool = ((shipped['properties'] as Record<string, { items?: Record<string, unknown> }>)['tools']?.items ?? {}) as {
      properties: Record<string, { description?: string }>;
    };
    for (const [field, schema] of Object.entries(tool.properties)) {
      expect(schema.description, `description of tool.${field}`).toEqual(expect.any(String));
    }
  });

  it('is exported by the package', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
      files: string[];
    };
    expect(pkg.exports['./rcp-manifest.schema.json']).toBe('./rcp-manifest.schema.json');
    expect(pkg.files).toContain('rcp-manifest.schema.json');
  });
});

describe('the shipped JSON Schema, read by a JSON Schema validator (ajv, draft-07)', () => {
  it('compiles, accepts 0.1 and 0.2 manifests with nested value details, refuses a wrong nested type', async () => {
    const { default: Ajv } = (await import('ajv')) as unknown as {
      default: new (options: object) => { compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown } };
    };
    const validate = new Ajv({ strict: false }).compile(shipped);
    const tool = {
      name: 't',
      description: 'd',
      method: 'POST',
      url: '/x',
      bodyEncoding: 'form',
      params: [{ name: 'tags', type: 'array', items: { type: 'object', properties: { id: { type: 'string', enum: ['a'] } }, required: ['id'] } }],
      body: { tags: '{{tags}}' },
    };
    expect(validate({ rcpVersion: '0.2', auth: { type: 'query', name: 'api_key' }, tools: [tool] })).toBe(true);
    expect(validate({ rcpVersion: '0.1', tools: [] })).toBe(true);
    expect(validate({ rcpVersion: '0.2', tools: [{ ...tool, params: [{ name: 'tags', items: { type: 'text' } }] }] })).toBe(false);
  });
});
