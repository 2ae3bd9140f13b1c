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

  it('pairs each --args with the --call before it', () => {
    const options = parseCliOptions([
      '--manifest', MANIFEST,
      '--call', 'search_courses', '--args', '{"query":"algebra"}',
      '--call', 'get_learner_profile',
      '--ctx', '{"userId":"learner-42"}',
      '--resolve', 'learnerId=userId', '--resolve', 'tenant',
      '--token', 'secret',
    ]);
    expect(options).toEqual({
      command: 'explore',
      json: false,
      manifestUrl: MANIFEST,
      calls: [
        { name: 'search_courses', arguments: '{"query":"algebra"}' },
        { name: 'get_learner_profile', arguments: '{}' },
      ],
      ctx: { userId: 'learner-42' },
      token: 'secret',
      resolve: [{ param: 'learnerId', ctxKey: 'userId' }, { param: 'tenant', ctxKey: 'tenant' }],
    });
  });

  it('reads the credential from RCP_TOKEN when --token is absent', () => {
    const options = parseCliOptions(['--manifest', MANIFEST], { RCP_TOKEN: 'from-env' });
    expect(options).toMatchObject({ command: 'explore', token: 'from-env' });
    expect(parseCliOptions(['--manifest', MANIFEST, '--token', 'flag'], { RCP_TOKEN: 'env' })).toMatchObject({ token: 'flag' });
  });

  it('explains every bad command line in one line', () => {
    const cases: [string[], RegExp][] = [
      [['--nope'], /unknown option '--nope'/],
      [['extra'], /unexpected argument 'extra'/],
      [['--manifest'], /argument missing/],
      [['--json=yes'], /does not take an argument/],
      [['--call', 'x'], /--call needs --manifest/],
      [['--token', 'x'], /--token needs --manifest/],
      [['--manifest', 'not a url'], /--manifest must be an absolute http\(s\) URL/],
      [['--manifest', 'file:///etc/passwd'], /--manifest must be an absolute http\(s\) URL/],
      [['--manifest', MANIFEST, '--args', '{}'], /--args must follow the --call/],
      [['--manifest', MANIFEST, '--call', 'a', '--args', '[1]'], /--args must be a JSON object/],
      [['--manifest', MANIFEST, '--call', 'a', '--args', '{oops'], /--args must be a JSON object/],
      [['--manifest', MANIFEST, '--call', 'a', '--args', '{}', '--args', '{}'], /more than one --args/],
      [['--manifest', MANIFEST, '--ctx', 'null'], /--ctx must be a JSON object/],
      [['--manifest', MANIFEST, '--resolve', 'a=b=c'], /--resolve expects/],
      [['--manifest', MANIFEST, '--resolve', 'bad-name'], /--resolve expects/],
    ];
    for (const [argv, pattern] of cases) {
      const message = usageError(argv);
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
    }
  });
});
