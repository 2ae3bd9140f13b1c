import { describe, expect, it, vi } from 'vitest';
import { isRcpError } from 'rcp-errors';
import type { ModelTool } from './model-tool';
import { ModelToolRegistry } from './model-tool-registry';
import { codeOf } from './internal/testing';

const inputSchema = {
  jsonSchema: { type: 'object', properties: {}, additionalProperties: false },
  parse(value: unknown) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length) throw new Error('需要空对象');
    return {};
  },
};

const tool = (id: string, extra: Partial<ModelTool> = {}): ModelTool<unknown, string> =>
  ({ id, description: `${id} tool`, inputSchema, resolve: () => id, ...extra }) as ModelTool<unknown, string>;

describe('ModelToolRegistry (seed: declare two selectable tools)', () => {
  it('runs the seed example as written', () => {
    const tools = new ModelToolRegistry([
      { id: 'greet', description: '回答问候', inputSchema, resolve: () => 'greet' },
      { id: 'status', description: '查询状态', inputSchema, resolve: () => 'status' },
    ]).seal();
    expect(tools.resolve({ toolId: 'status', input: {} }, { stageId: 'recognize' })).toBe('status');
    expect(tools.ids()).toEqual(['greet', 'status']);
  });

  it('passes the parsed input and a frozen { stageId } context to resolve', () => {
    const resolve = vi.fn((input: unknown, context: { stageId: string }) => ({ input, context }));
    const sealed = new ModelToolRegistry([{ id: 'a', description: 'a', inputSchema, resolve }]).seal();
    const out = sealed.resolve({ toolId: 'a', input: {} }, { stageId: 's1' });
    expect(out).toEqual({ input: {}, context: { stageId: 's1' } });
    expect(Object.isFrozen(out.context)).toBe(true);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('keeps the original definition as `this` for resolve and parse', () => {
    const adapter = {
      jsonSchema: { type: 'object' },
      marker: 'adapter',
      parse(this: { marker: string }, value: unknown) {
        return { value, by: this.marker };
      },
    };
    const definition = {
      id: 'a',
      description: 'a',
      inputSchema: adapter,
      label: 'definition',
      resolve(this: { label: string }, input: unknown) {
        return { input, by: this.label };
      },
    };
    const sealed = new ModelToolRegistry([definition]).seal();
    expect(sealed.resolve({ toolId: 'a', input: 1 }, { stageId: 's' })).toEqual({
      input: { value: 1, by: 'adapter' },
      by: 'definition',
    });
  });
});

describe('constructor validation', () => {
  it.each<[string, unknown[]]>([
    ['a blank id', [tool('  ')]],
    ['a missing id', [{ ...tool('a'), id: undefined }]],
    ['a duplicate id', [tool('a'), tool('b'), tool('a')]],
    ['a missing description', [{ ...tool('a'), description: '' }]],
    ['a blank description', [{ ...tool('a'), description: ' \n ' }]],
    ['no input schema', [{ ...tool('a'), inputSchema: undefined }]],
    ['a schema without parse', [{ ...tool('a'), inputSchema: { jsonSchema: { type: 'object' } } }]],
    ['a non-object schema', [{ ...tool('a'), inputSchema: { jsonSchema: { type: 'string' }, parse: () => 1 } }]],
    ['a schema that is not data', [{ ...tool('a'), inputSchema: { jsonSchema: { type: 'object', f: () => 1 }, parse: () => 1 } }]],
    ['a missing resolve', [{ ...tool('a'), resolve: 'nope' }]],
    ['a non-object definition', [null]],
  ])('refuses %s with RCP_INVALID_TOOL', (_name, tools) => {
    expect(codeOf(() => new ModelToolRegistry(tools as ModelTool[]))).toBe('RCP_INVALID_TOOL');
  });

  it('refuses a non-array', () => {
    expect(codeOf(() => new ModelToolRegistry('greet' as never))).toBe('RCP_INVALID_TOOL');
  });

  it('lists every problem, with where it is', () => {
    try {
      new ModelToolRegistry([tool('a'), tool(''), tool('a')]);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('tools[1].id must be a non-blank string');
      expect((error as Error).message).toContain('tools[2].id "a" duplicates tools[0].id');
    }
  });

  it('accepts an empty registry', () => {
    expect(new ModelToolRegistry([]).seal().ids()).toEqual([]);
  });

  it('stores active and asIntent untouched', () => {
    const active = () => true;
    const asIntent = () => 'search';
    const sealed = new ModelToolRegistry([tool('a', { active, asIntent })]).seal();
    expect(sealed.get('a')?.active).toBe(active);
    expect(sealed.get('a')?.asIntent).toBe(asIntent);
    expect(sealed.get('a')).not.toHaveProperty('active', undefined);
  });
});

describe('sealing', () => {
  const sealed = new ModelToolRegistry([tool('greet'), tool('status')]).seal();

  it('returns the same sealed registry every time', () => {
    const registry = new ModelToolRegistry([tool('a')]);
    expect(registry.seal()).toBe(registry.seal());
  });

  it('freezes the registry, its id list and every stored tool', () => {
    expect(Object.isFrozen(sealed)).toBe(true);
    expect(Object.isFrozen(sealed.ids())).toBe(true);
    const stored = sealed.get('greet')!;
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.inputSchema)).toBe(true);
    expect(Object.isFrozen(stored.inputSchema.jsonSchema)).toBe(true);
    expect(Object.isFrozen((stored.inputSchema.jsonSchema as { properties: object }).properties)).toBe(true);
  });

  it('throws in strict mode on adding, replacing or deleting anything', () => {
    // ES modules are strict, so each assignment throws a TypeError.
    const target = sealed as unknown as Record<string, unknown>;
    expect(() => {
      target.extra = () => 1;
    }).toThrow(TypeError);
    expect(() => {
      target.resolve = () => 'hijacked';
    }).toThrow(TypeError);
    expect(() => {
      delete target.get;
    }).toThrow(TypeError);
    expect(() => {
      (sealed.ids() as string[]).push('evil');
    }).toThrow(TypeError);
    const stored = sealed.get('greet') as unknown as Record<string, unknown>;
    expect(() => {
      stored.resolve = () => 'hijacked';
    }).toThrow(TypeError);
    expect(() => {
      stored.description = 'changed';
    }).toThrow(TypeError);
    expect(sealed.resolve({ toolId: 'greet', input: {} }, { stageId: 's' })).toBe('greet');
  });

  it('is a snapshot: changing a definition after registration changes nothing', () => {
    const definition = tool('a');
    const schema = { type: 'object', properties: {} as Record<string, unknown> };
    definition.inputSchema = { jsonSchema: schema, parse: () => ({}) };
    const frozen = new ModelToolRegistry([definition]).seal();
    definition.description = 'changed';
    definition.resolve = () => 'hijacked';
    schema.properties.injected = { type: 'string' };
    expect(frozen.get('a')?.description).toBe('a tool');
    expect(frozen.get('a')?.inputSchema.jsonSchema).toEqual({ type: 'object', properties: {} });
    expect(frozen.resolve({ toolId: 'a', input: {} }, { stageId: 's' })).toBe('a');
    expect(Object.isFrozen(schema)).toBe(false); // the caller's object is left alone
  });
});

describe('select (stage projections)', () => {
  const sealed = new ModelToolRegistry([tool('greet'), tool('status'), tool('admin')]).seal();

  it('returns a sealed projection offering only the selected ids, in the given order', () => {
    const projection = sealed.select(['status', 'greet', 'status']);
    expect(projection.ids()).toEqual(['status', 'greet']);
    expect(Object.isFrozen(projection)).toBe(true);
    expect(projection.get('admin')).toBeUndefined();
    expect(projection.get('status')).toBe(sealed.get('status'));
  });

  it('throws RCP_UNKNOWN_TOOL for an unknown id', () => {
    expect(codeOf(() => sealed.select(['status', 'nope']))).toBe('RCP_UNKNOWN_TOOL');
  });

  it('only narrows: a projection cannot select a tool it does not offer', () => {
    const projection = sealed.select(['status']);
    expect(codeOf(() => projection.select(['admin']))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(projection.select(['status']).ids()).toEqual(['status']);
  });

  it('refuses a non-array', () => {
    expect(codeOf(() => sealed.select('status' as never))).toBe('RCP_INVALID_OPTIONS');
  });
});

describe('resolve', () => {
  const parse = vi.fn((value: unknown) => value);
  const resolve = vi.fn(() => 'ran');
  const sealed = new ModelToolRegistry([
    tool('greet', { resolve }),
    tool('status', { inputSchema: { jsonSchema: { type: 'object' }, parse }, resolve }),
  ]).seal();
  const stage = sealed.select(['status']);

  it('refuses a tool outside the projection with RCP_TOOL_NOT_IN_STAGE before parsing or resolving', () => {
    parse.mockClear();
    resolve.mockClear();
    expect(codeOf(() => stage.resolve({ toolId: 'greet', input: {} }, { stageId: 'recognize' }))).toBe('RCP_TOOL_NOT_IN_STAGE');
    expect(parse).not.toHaveBeenCalled();
    expect(resolve).not.toHaveBeenCalled();
  });

  it('names the stage in the refusal', () => {
    expect(() => stage.resolve({ toolId: 'greet', input: {} }, { stageId: 'recognize' })).toThrow('Tool "greet" is not available in stage "recognize".');
  });

  it('refuses an unknown tool with RCP_UNKNOWN_TOOL', () => {
    expect(codeOf(() => stage.resolve({ toolId: 'nope', input: {} }, { stageId: 's' }))).toBe('RCP_UNKNOWN_TOOL');
    expect(codeOf(() => sealed.resolve({ toolId: '__proto__', input: {} }, { stageId: 's' }))).toBe('RCP_UNKNOWN_TOOL');
    expect(codeOf(() => sealed.resolve({ toolId: 42 as never, input: {} }, { stageId: 's' }))).toBe('RCP_UNKNOWN_TOOL');
    expect(codeOf(() => sealed.resolve(null as never, { stageId: 's' }))).toBe('RCP_UNKNOWN_TOOL');
  });

  it('needs a context with a string stageId', () => {
    expect(codeOf(() => sealed.resolve({ toolId: 'greet', input: {} }, undefined as never))).toBe('RCP_INVALID_OPTIONS');
    expect(codeOf(() => sealed.resolve({ toolId: 'greet', input: {} }, { stageId: 1 } as never))).toBe('RCP_INVALID_OPTIONS');
  });

  it('wraps a non-RCP parse error as RCP_INVALID_ARGUMENTS with the cause, and does not resolve', () => {
    resolve.mockClear();
    try {
      sealed.resolve({ toolId: 'greet', input: { extra: 1 } }, { stageId: 's' });
      expect.unreachable();
    } catch (error) {
      expect(isRcpError(error, 'RCP_INVALID_ARGUMENTS')).toBe(true);
      expect((error as Error).message).toBe('Invalid arguments for tool "greet": the arguments were refused: 需要空对象');
      expect((error as Error).cause).toBeInstanceOf(Error);
    }
    expect(resolve).not.toHaveBeenCalled();
  });

  it('lets an RCP error from parse through unchanged', async () => {
    const { RcpError } = await import('rcp-errors');
    const own = new RcpError('RCP_INVALID_ARGUMENTS', 'own message');
    const registry = new ModelToolRegistry([
      tool('a', {
        inputSchema: {
          jsonSchema: { type: 'object' },
          parse: () => {
            throw own;
          },
        },
      }),
    ]).seal();
    expect(() => registry.resolve({ toolId: 'a', input: {} }, { stageId: 's' })).toThrow(own);
  });

  it('rejects the selection when resolve throws', () => {
    const boom = new Error('no');
    const registry = new ModelToolRegistry([
      tool('a', {
        resolve: () => {
          throw boom;
        },
      }),
    ]).seal();
    expect(() => registry.resolve({ toolId: 'a', input: {} }, { stageId: 's' })).toThrow(boom);
  });

  it('refuses an asynchronous resolve or parse with RCP_INVALID_TOOL', () => {
    const registry = new ModelToolRegistry([
      tool('async', { resolve: async () => 'late' }),
      tool('thenable', { resolve: () => ({ then: () => undefined }) }),
      tool('rejecting', { resolve: () => Promise.reject(new Error('never unhandled')) }),
      tool('asyncParse', { inputSchema: { jsonSchema: { type: 'object' }, parse: async (value: unknown) => value } }),
    ]).seal();
    for (const toolId of ['async', 'thenable', 'rejecting', 'asyncParse']) {
      expect(codeOf(() => registry.resolve({ toolId, input: {} }, { stageId: 's' }))).toBe('RCP_INVALID_TOOL');
    }
  });

  it('is synchronous: the value is returned, not a promise', () => {
    const result = stage.resolve({ toolId: 'status', input: {} }, { stageId: 's' });
    expect(result).toBe('ran');
  });
});
