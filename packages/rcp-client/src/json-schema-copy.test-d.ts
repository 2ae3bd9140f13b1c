import { expectTypeOf, test } from 'vitest';
import { jsonSchemaCopy, type RcpClientTool, type RcpJsonSchema, type RcpJsonSchemaProperty } from 'rcp-client';

declare const tool: RcpClientTool;

test('the copy is a plain JSON Schema object: a Record<string, unknown>, its keywords typed', () => {
  const copy = jsonSchemaCopy(tool.inputSchema);
  expectTypeOf(copy).toEqualTypeOf<RcpJsonSchema>();
  expectTypeOf(copy).toExtend<Record<string, unknown>>();
  expectTypeOf(copy).toExtend<{ [keyword: string]: unknown }>();
  expectTypeOf(copy.type).toEqualTypeOf<'object'>();
  expectTypeOf(copy.required).toEqualTypeOf<string[]>();
  expectTypeOf(copy.properties).toEqualTypeOf<{ [name: string]: RcpJsonSchemaProperty }>();
  expectTypeOf(jsonSchemaCopy(tool.outputSchema!)).toEqualTypeOf<RcpJsonSchema>();
});

test('the copy is mutable at every depth (the tool is not)', () => {
  const copy = jsonSchemaCopy(tool.inputSchema);
  copy.required.push('x');
  copy.properties['x'] = { type: 'string', enum: ['a'] };
  copy.properties['x'].enum?.push('b');
  copy.properties['x'].items = { type: 'integer', minimum: 0 };
  copy['$schema'] = 'https://json-schema.org/draft/2020-12/schema';
  delete copy.properties['x'];
  // @ts-expect-error the tool's own schema is readonly
  tool.inputSchema.required.push('x');
  // @ts-expect-error
  tool.inputSchema.properties['x'] = { type: 'string' };
});

test('it takes only a tool schema', () => {
  // @ts-expect-error not a tool's schema
  jsonSchemaCopy({ type: 'string' });
  // @ts-expect-error
  jsonSchemaCopy(tool);
});
