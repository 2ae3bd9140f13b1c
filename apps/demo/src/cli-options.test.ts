import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options';
import { UsageError } from './demo-errors';

const MANIFEST = 'http://127.0.0.1:8080/rcp/manifest';

function usageError(argv: string[]): string {
  try {
    parseCliOptions(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseCliOptions', () => {
  it('runs the embedded demo by default', () => {
    expect(parseCliOptions([])).toEqual({ command: 'demo', json: false });
    expect(parseCliOptions(['--json'])).toEqual({ command: 'demo', json: true });
    expect(parseCliOptions(['--', '--json'])).toEqual({ command: 'demo', json: true });
  });

  it('recognises --help and -h', () => {
    expect(parseCliOptions(['--help'])).toEqual({ command: 'help' });
    expect(parseCliOptions(['-h', '--json'])).toEqual({ command: 'help' });
  });

  it('--serve takes a port and a token (flag, else RCP_TOKEN)', () => {
    expect(parseCliOptions(['--serve'])).toEqual({ command: 'serve', port: 0, token: undefined });
    expect(parseCliOptions(['--serve', '--port', '8080'], { RCP_TOKEN: 'from-env' })).toEqual({ command: 'serve', port: 8080, token: 'from-env' });
    expect(parseCliOptions(['--serve', '--token', 'flag'], { RCP_TOKEN: 'env' })).toMatchObject({ token: 'flag' });
  });

  it('explains every bad command line in one line', () => {
    const cases: [string[], RegExp][] = [
      [['--nope'], /unknown option '--nope'/],
      [['extra'], /unexpected argument 'extra'/],
      [['--json=yes'], /does not take an argument/],
      [['--port', '1'], /--port needs --serve/],
      [['--token', 'x'], /--token needs --serve/],
      [['--serve', '--port', 'x'], /--port must be a port number/],
      [['--serve', '--json'], /--json is for the embedded run/],
      [['--manifest', MANIFEST], /moved to the rcp CLI: rcp describe/],
      [['--call', 'x'], /moved to the rcp CLI/],
    ];
    for (const [argv, pattern] of cases) {
      const message = usageError(argv);
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
    }
  });
});
