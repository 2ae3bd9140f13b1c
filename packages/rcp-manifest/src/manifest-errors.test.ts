import { describe, expect, it } from 'vitest';
import { RcpError, RcpManifestError, RcpManifestLimitError, RcpVersionError, isRcpError } from './index';

describe('manifest errors', () => {
  it('RcpVersionError carries received and supported, and says what was received', () => {
    const error = new RcpVersionError('0.2', ['0.1']);
    expect(error).toBeInstanceOf(RcpError);
    expect(isRcpError(error, 'RCP_UNSUPPORTED_VERSION')).toBe(true);
    expect(error.name).toBe('RcpVersionError');
    expect(error.message).toBe('Unsupported rcpVersion "0.2"; supported: "0.1". The server\'s tools were not loaded.');
    expect(error.toJSON()).toMatchObject({ received: '0.2', supported: ['0.1'] });
    expect(new RcpVersionError(1, ['0.1']).message).toMatch(/must be a string, got a number/);
  });

  it('RcpManifestError lists the first five issues in its message', () => {
    const issues = Array.from({ length: 6 }, (_, index) => ({ path: `/tools/${index}/name`, message: 'bad' }));
    const error = new RcpManifestError(issues);
    expect(error.code).toBe('RCP_INVALID_MANIFEST');
    expect(error.message).toBe(
      'Invalid RCP manifest, 6 problems: /tools/0/name: bad; /tools/1/name: bad; /tools/2/name: bad; /tools/3/name: bad; /tools/4/name: bad (and 1 more)',
    );
    expect(new RcpManifestError([{ path: '', message: 'x' }]).message).toBe('Invalid RCP manifest, 1 problem: (root): x');
  });

  it('RcpManifestLimitError carries limit, max and actual', () => {
    const error = new RcpManifestLimitError('tools', 5000, 5001);
    expect(error).toMatchObject({ code: 'RCP_MANIFEST_LIMIT', limit: 'tools', max: 5000, actual: 5001 });
    expect(error.message).toBe('The manifest exceeds the tools limit: 5001 tools, at most 5000 allowed.');
    expect('actual' in new RcpManifestLimitError('depth', 64)).toBe(false);
  });
});
