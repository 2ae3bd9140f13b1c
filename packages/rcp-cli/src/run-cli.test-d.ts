import { PassThrough, Readable } from 'node:stream';
import { expectTypeOf, test } from 'vitest';
import { runCli, type RunCliOptions } from './index';

test('every option is optional; the streams are any Node streams, the environment a string record', () => {
  expectTypeOf(runCli).parameter(1).toEqualTypeOf<RunCliOptions | undefined>();
  expectTypeOf(runCli).returns.toEqualTypeOf<Promise<number>>();
  expectTypeOf<RunCliOptions>().toEqualTypeOf<Partial<RunCliOptions>>();
  const options: RunCliOptions = {
    stdout: new PassThrough(),
    stderr: process.stderr,
    stdin: Readable.from([]),
    env: { NOTES_TOKEN: 'x', UNSET: undefined },
    cwd: '/tmp',
    signal: new AbortController().signal,
  };
  void options;
  // @ts-expect-error argv is a list of strings
  void runCli('lint rcp-manifest.json');
  // @ts-expect-error an environment holds strings
  const env: RunCliOptions = { env: { PORT: 3000 } };
  void env;
});
