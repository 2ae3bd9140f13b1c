/** Sample arguments for an imported tool's model-facing schema: shared by the tests that validate what the client sends. */
import type { RcpClientTool, RcpInputSchemaProperty } from 'rcp-client';

type Json = Record<string, unknown>;

/** A value the schema accepts, picked without randomness. */
export function sample(schema: RcpInputSchemaProperty): unknown {
  if (schema.enum !== undefined) return schema.enum[0];
  switch (schema.type) {
    case 'string': {
      const byFormat: Record<string, string> = {
        'date-time': '2024-01-02T03:04:05Z',
        date: '2024-01-02',
        email: 'ada@example.com',
        uri: 'https://example.com/x',
        uuid: '0b9f6e2c-3d4a-4b5c-8d6e-7f8a9b0c1d2e',
      };
      const text = byFormat[schema.format ?? ''] ?? 'sample';
      return schema.minLength !== undefined && text.length < schema.minLength ? text.padEnd(schema.minLength, 'x') : text;
    }
    case 'integer':
      return Math.min(schema.maximum ?? 7, Math.max(schema.minimum ?? 1, 1));
    case 'number':
      return Math.min(schema.maximum ?? 1.5, Math.max(schema.minimum ?? 1.5, 1.5));
    case 'boolean':
      return true;
    case 'array':
      return schema.items === undefined ? ['sample'] : [sample(schema.items)];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value)]));
  }
}

export function argsFor(tool: RcpClientTool): Json {
  return Object.fromEntries(Object.entries(tool.inputSchema.properties).map(([name, schema]) => [name, sample(schema)]));
}
