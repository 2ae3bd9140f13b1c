import { describe, expect, it } from 'vitest';
import { compileArgumentCheck } from 'rcp-manifest';
import { isRcpError, parseToolArguments, RcpInvalidArgumentsError } from './index';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('parseToolArguments', () => {
  it('parses JSON text, takes blank text and undefined as {}, and returns any other value as it is', () => {
    expect(parseToolArguments('t', '{"query":"invoice","limit":2}')).toEqual({ query: 'invoice', limit: 2 });
    expect(parseToolArguments('t', ' \n')).toEqual({});
    expect(parseToolArguments('t', undefined)).toEqual({});
    const args = { query: 'x' };
    expect(parseToolArguments('t', args)).toBe(args);
    expect(parseToolArguments('t', '[1]')).toEqual([1]);
    expect(parseToolArguments('t', null)).toBeNull();
  });

  it('refuses text that is not JSON with RCP_INVALID_ARGUMENTS, the parse error as cause, no input in the message', () => {
    const error = thrown(() => parseToolArguments('search_tools', '{"secret":"s3cr3t",'));
    expect(error).toBeInstanceOf(RcpInvalidArgumentsError);
    expect(isRcpError(error, 'RCP_INVALID_ARGUMENTS')).toBe(true);
    const invalid = error as RcpInvalidArgumentsError;
    expect(invalid.tool).toBe('search_tools');
    expect(invalid.issues).toEqual([{ path: '', message: 'are not valid JSON' }]);
    expect(invalid.cause).toBeInstanceOf(SyntaxError);
    expect(invalid.message).toBe('Invalid arguments for tool "search_tools": the arguments are not valid JSON');
    expect(invalid.message).not.toContain('s3cr3t');
  });

  it('is the rule of the client`s own argument check (rcp-manifest compileArgumentCheck) for text', () => {
    const check = compileArgumentCheck([{ name: 'query' }]);
    for (const text of ['', '  ', '{"query":"a"}', 'not json', '{']) {
      const result = check(text);
      if (result.ok) expect(parseToolArguments('t', text)).toEqual({ ...result.values });
      else expect((thrown(() => parseToolArguments('t', text)) as RcpInvalidArgumentsError).issues).toEqual(result.issues);
    }
  });
});
