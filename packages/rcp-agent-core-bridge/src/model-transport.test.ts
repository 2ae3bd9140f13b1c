import { describe, expect, it, vi } from 'vitest';
import { ModelToolRegistry } from './model-tool-registry';
import { Support } from './support';
import { codeOf } from './internal/testing';

describe('Support (seed: project an allowed subset to only one stage)', () => {
  it('runs the seed example as written', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const schema = Support.defineSchema({
      jsonSchema: { type: 'object', properties: {} },
      parse(value: unknown) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('需要对象');
        return {};
      },
    });
    const registry = new ModelToolRegistry([
      { id: 'greet', description: '问候', inputSchema: schema, resolve: () => 'greet' },
      { id: 'status', description: '状态', inputSchema: schema, resolve: () => 'status' },
    ]).seal();
    const readOnly = registry.select(['status']);
    const transport = Support.createModelTransport({ id: 'recognize', tools: readOnly });
    console.log(transport.id, readOnly.ids());
    expect(log).toHaveBeenCalledWith('recognize', ['status']);
    log.mockRestore();
    expect(transport.id).toBe('recognize');
    expect(readOnly.ids()).toEqual(['status']);
  });
});

describe('Support.defineSchema', () => {
  it('returns a frozen snapshot of the adapter', () => {
    const jsonSchema = { type: 'object', properties: {} };
    const schema = Support.defineSchema({ jsonSchema, parse: (value: unknown) => value });
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen(schema.jsonSchema)).toBe(true);
    expect(schema.jsonSchema).toEqual(jsonSchema);
    expect(schema.parse(5)).toBe(5);
    expect(Object.isFrozen(Support)).toBe(true);
  });

  it.each([
    ['no adapter', undefined],
    ['no parse', { jsonSchema: { type: 'object' } }],
    ['no jsonSchema', { parse: () => 1 }],
  ])('refuses %s with RCP_INVALID_TOOL', (_name, adapter) => {
    expect(codeOf(() => Support.defineSchema(adapter as never))).toBe('RCP_INVALID_TOOL');
  });
});

describe('Support.createModelTransport', () => {
  const schema = Support.defineSchema({
    jsonSchema: {
      type: 'object',
      properties: { n: { type: 'number', description: 'a number' } },
      required: ['n'],
      additionalProperties: false,
    },
    parse(value: unknown) {
      const n = (value as { n?: unknown } | null)?.n;
      if (typeof n !== 'number') throw new TypeError('n must be a number');
      return { n };
    },
  });
  const registry = new ModelToolRegistry([
    {
      id: 'double',
      description: 'Doubles n.',
      inputSchema: schema,
      resolve: (input: { n: number }, context) => ({ value: input.n * 2, stage: context.stageId }),
    },
    { id: 'negate', description: 'Negates n.', inputSchema: schema, resolve: (input: { n: number }, context) => ({ value: -input.n, stage: context.stageId }) },
  ]).seal();
  const transport = Support.createModelTransport({ id: 'math', tools: registry.select(['double']) });

  it('lists the stage tools for a model, frozen', () => {
    expect(transport.catalog()).toEqual([{ name: 'double', description: 'Doubles n.', parameters: schema.jsonSchema }]);
    expect(Object.isFrozen(transport)).toBe(true);
    expect(Object.isFrozen(transport.catalog())).toBe(true);
    expect(Object.isFrozen(transport.catalog()[0]!.parameters)).toBe(true);
  });

  it('resolves JSON-text and object arguments with stageId = the transport id', () => {
    expect(transport.select({ name: 'double', arguments: '{"n":21}' })).toEqual({ value: 42, stage: 'math' });
    expect(transport.select({ name: 'double', arguments: { n: 2 } })).toEqual({ value: 4, stage: 'math' });
  });

  it('treats missing or blank arguments as {}', () => {
    const empty = Support.createModelTransport({
      id: 'e',
      tools: new ModelToolRegistry([
        { id: 'ping', description: 'Ping.', inputSchema: { jsonSchema: { type: 'object' }, parse: (v: unknown) => v }, resolve: (input: unknown) => input },
      ]).seal(),
    });
    expect(empty.select({ name: 'ping' })).toEqual({});
    expect(empty.select({ name: 'ping', arguments: '  ' })).toEqual({});
  });

  it('refuses invalid JSON with RCP_INVALID_ARGUMENTS', () => {
    expect(codeOf(() => transport.select({ name: 'double', arguments: '{"n":' }))).toBe('RCP_INVALID_ARGUMENTS');
  });

  it('refuses invalid input, an out-of-stage tool and an unknown tool with stable codes', () => {
    expect(codeOf(() => transport.select({ name: 'double', arguments: '{"n":"x"}' }))).toBe('RCP_INVALID_ARGUMENTS');
    expect(codeOf(() => transport.select({ name: 'negate', arguments: '{"n":1}' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(codeOf(() => transport.select({ name: 'nope', arguments: '{}' }))).toBe('RCP_UNKNOWN_TOOL');
    expect(codeOf(() => transport.select({ arguments: '{}' } as never))).toBe('RCP_UNKNOWN_TOOL');
  });

  it('refuses a blank id or something that is not a sealed registry', () => {
    expect(codeOf(() => Support.createModelTransport({ id: ' ', tools: registry }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => Support.createModelTransport({ id: 'x', tools: {} as never }))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => Support.createModelTransport(undefined as never))).toBe('RCP_INVALID_OPTIONS');
  });
});
