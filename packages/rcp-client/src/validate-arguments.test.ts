import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from 'rcp-test-utils';
import { createRcpClient } from './create-rcp-client';
import type { RcpClientTool } from './client-tool';
import { RcpInvalidArgumentsError } from './invalid-arguments-error';
import { rejectsWith, serveManifest } from './internal/testing';
import { validateArguments } from './validate-arguments';

const manifest = {
  rcpVersion: '0.1',
  tools: [
    {
      name: 'all_types',
      description: 'Takes one param of every type.',
      method: 'POST',
      url: '/things/{{id}}',
      body: {
        s: '{{s}}',
        n: '{{n}}',
        i: '{{i}}',
        b: '{{b}}',
        a: '{{a}}',
        o: '{{o}}',
        learner: '{{learnerId}}',
      },
      params: [
        { name: 'id', description: 'path param, so required' },
        { name: 's', type: 'string', required: true, description: 'a string' },
        { name: 'n', type: 'number' },
        { name: 'i', type: 'integer' },
        { name: 'b', type: 'boolean' },
        { name: 'a', type: 'array' },
        { name: 'o', type: 'object' },
        { name: 'learnerId', type: 'string', required: true },
      ],
    },
  ],
};

let server: TestServer;
let tool: RcpClientTool;
beforeAll(async () => {
  server = await startTestServer();
  const client = createRcpClient({ resolvers: { learnerId: () => 'l-1' } });
  const { tools } = await client.discover(serveManifest(server, manifest));
  tool = tools[0]!;
});
afterAll(async () => {
  await server.close();
});

function issuesOf(args: unknown) {
  try {
    validateArguments(tool, args);
  } catch (error) {
    expect(error).toBeInstanceOf(RcpInvalidArgumentsError);
    return (error as RcpInvalidArgumentsError).issues;
  }
  throw new Error('expected RCP_INVALID_ARGUMENTS');
}

describe('validateArguments', () => {
  it('returns a null-prototype copy of the accepted values', () => {
    const args = { id: 'x', s: 'text', n: 1.5, i: 3, b: false, a: [1], o: { k: 1 } };
    const values = validateArguments(tool, args);
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect({ ...values }).toEqual(args);
    expect(values).not.toBe(args);
  });

  it('treats undefined and null as "not given"', () => {
    const values = validateArguments(tool, { id: 'x', s: 'y', n: null, i: undefined });
    expect(Object.keys(values)).toEqual(['id', 's']);
    expect(issuesOf({ id: 'x', s: null })).toEqual([{ path: '/s', message: 'is required' }]);
  });

  it('checks every type', () => {
    expect(issuesOf({ id: 1, s: 2, n: Number.NaN, i: 1.5, b: 'true', a: { length: 0 }, o: [1] })).toEqual([
      { path: '/id', message: 'must be a string (got integer)' },
      { path: '/s', message: 'must be a string (got integer)' },
      { path: '/n', message: 'must be a number (got NaN)' },
      { path: '/i', message: 'must be a safe integer (got number)' },
      { path: '/b', message: 'must be a boolean (got string)' },
      { path: '/a', message: 'must be an array (got object)' },
      { path: '/o', message: 'must be an object (got array)' },
    ]);
    expect(issuesOf({ id: 'x', s: 'y', n: Number.POSITIVE_INFINITY })).toEqual([{ path: '/n', message: 'must be a number (got Infinity)' }]);
    // SPEC §11: integer means a safe integer; 2^60 cannot be represented exactly.
    expect(issuesOf({ id: 'x', s: 'y', i: 2 ** 60 })).toEqual([{ path: '/i', message: 'must be a safe integer (got integer)' }]);
    expect(validateArguments(tool, { id: 'x', s: 'y', i: Number.MAX_SAFE_INTEGER }).i).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('lists every problem: required, extra keys (JSON Pointer escaped), resolver-bound keys', () => {
    const issues = issuesOf({ 'a/b~c': 1, learnerId: 'spoofed', extra: true });
    expect(issues).toEqual([
      { path: '/a~1b~0c', message: 'is not a parameter of this tool' },
      { path: '/learnerId', message: 'is not a parameter of this tool' },
      { path: '/extra', message: 'is not a parameter of this tool' },
      { path: '/id', message: 'is required' },
      { path: '/s', message: 'is required' },
    ]);
  });

  it('never puts a value in the message, and names the first few problems', () => {
    const error = (() => {
      try {
        validateArguments(tool, { id: 'x', s: 'SECRET-VALUE', learnerId: 'SPOOF-VALUE', e1: 1, e2: 2, e3: 3, e4: 4, e5: 5 });
      } catch (caught) {
        return caught as RcpInvalidArgumentsError;
      }
      throw new Error('expected a throw');
    })();
    expect(error.code).toBe('RCP_INVALID_ARGUMENTS');
    expect(error.tool).toBe('all_types');
    expect(error.message).toBe(
      'Invalid arguments for tool "all_types": /learnerId is not a parameter of this tool; /e1 is not a parameter of this tool; ' +
        '/e2 is not a parameter of this tool; /e3 is not a parameter of this tool; /e4 is not a parameter of this tool (and 1 more)',
    );
    expect(JSON.stringify(error)).not.toMatch(/SECRET-VALUE|SPOOF-VALUE/);
  });

  it('reads own properties only: a __proto__ key from JSON.parse is an extra key, inherited keys are ignored', () => {
    const parsed = JSON.parse('{"id": "x", "s": "y", "__proto__": {"learnerId": "evil"}}');
    expect(issuesOf(parsed)).toEqual([{ path: '/__proto__', message: 'is not a parameter of this tool' }]);
    const inherited = Object.create({ id: 'x', s: 'y' });
    expect(issuesOf(inherited)).toEqual([
      { path: '/id', message: 'is required' },
      { path: '/s', message: 'is required' },
    ]);
    expect(({} as Record<string, unknown>).learnerId).toBeUndefined();
  });

  it('takes arguments as a JSON string, as model APIs return them; blank means {}', () => {
    expect(validateArguments(tool, '{"id":"x","s":"y"}')).toEqual({ id: 'x', s: 'y' });
    expect(issuesOf('  ')).toEqual(issuesOf({}));
    expect(issuesOf('{"id":"x","s":"y","extra":1}')).toEqual([{ path: '/extra', message: 'is not a parameter of this tool' }]);
  });

  it('refuses non-object arguments; undefined means {}', () => {
    expect(issuesOf('x')).toEqual([{ path: '', message: 'are not valid JSON' }]);
    expect(issuesOf('"x"')).toEqual([{ path: '', message: 'must be an object (got string)' }]);
    expect(issuesOf([])).toEqual([{ path: '', message: 'must be an object (got array)' }]);
    expect(issuesOf(null)).toEqual([{ path: '', message: 'must be an object (got null)' }]);
    expect(issuesOf(undefined)).toEqual([
      { path: '/id', message: 'is required' },
      { path: '/s', message: 'is required' },
    ]);
  });

  it('refuses a copy or a look-alike of a tool with RCP_INVALID_TOOL', async () => {
    await rejectsWith(() => validateArguments({ ...tool }, { id: 'x', s: 'y' }), 'RCP_INVALID_TOOL');
    await rejectsWith(() => validateArguments(structuredClone(tool), {}), 'RCP_INVALID_TOOL');
    await rejectsWith(() => validateArguments(null as never, {}), 'RCP_INVALID_TOOL');
  });

  it('exposes the model-facing inputSchema without resolver-bound params', () => {
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'path param, so required' },
        s: { type: 'string', description: 'a string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        a: { type: 'array' },
        o: { type: 'object' },
      },
      required: ['id', 's'],
      additionalProperties: false,
    });
    expect(tool.resolvedParams).toEqual(['learnerId']);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.inputSchema.properties)).toBe(true);
    expect(Object.isFrozen(tool.params[0])).toBe(true);
  });
});
