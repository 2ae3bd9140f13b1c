import { HELP_TEXT, parseCliOptions, type CliOptions } from './cli-options';
import { DemoCheckError, SetupError, UsageError } from './demo-errors';
import { renderText } from './render-text';
import type { DemoReport } from './report';
import { createTerminalStyle, shouldUseColor } from './terminal-style';

/** A stream the demo writes to: `process.stdout`, or any writable (a test's). */
export type DemoOutput = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** Where {@link runDemo} writes, what it reads, and what stops `--serve`; each defaults to the process's own. */
export interface DemoIo {
  /** The demo's output (default `process.stdout`); colours only when its `isTTY` is true (or `FORCE_COLOR`), never with `NO_COLOR`. */
  readonly stdout?: DemoOutput;
  /** One line for a failure (default `process.stderr`). */
  readonly stderr?: DemoOutput;
  /** `RCP_TOKEN`, `NO_COLOR`, `FORCE_COLOR`, `TERM` and `RCP_DEMO_DEBUG` are read from it (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Stops `--serve`; without it, SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal;
}

function write(stream: DemoOutput, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve();
    else stream.once('drain', () => resolve());
  });
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

async function load<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SetupError(`cannot load rcp-sdk; build it first with "pnpm build" (${reason})`);
  }
}

async function run(_options: Exclude<CliOptions, { command: 'help' | 'serve' }>): Promise<DemoReport> {
  const { runEmbeddedDemo } = await load(() => import('./embedded-demo'));
  return runEmbeddedDemo();
}

/** Resolves when `--serve` should stop: the run's signal, or else the process's SIGINT or SIGTERM. */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined) {
    return signal.aborted ? Promise.resolve() : new Promise((done) => signal.addEventListener('abort', () => done(), { once: true }));
  }
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `--serve`: the learning platform on 127.0.0.1 until stopped, with the rcp commands to look at it. */
async function serve(port: number, token: string | undefined, stdout: DemoOutput, signal: AbortSignal | undefined): Promise<number> {
  const { startLearningPlatform } = await load(() => import('./learning-platform'));
  const platform = await startLearningPlatform({ ...(token !== undefined && { token }), port });
  const lines = [
    `The demo's learning platform is serving its RCP manifest at ${platform.manifestUrl}`,
    '',
    'Look at it with the rcp CLI (in another terminal):',
    `  pnpm rcp describe ${platform.manifestUrl} --resolve learnerId`,
    `  RCP_TOKEN=${token === undefined ? platform.token : '<your token>'} pnpm rcp inspect ${platform.manifestUrl} --token-env RCP_TOKEN`,
    '',
    'Ctrl-C stops it.',
  ];
  await write(stdout, `${lines.join('\n')}\n`);
  await stopped(signal);
  await platform.close();
  return 0;
}

function describeFailure(error: unknown): string {
  if (error instanceof DemoCheckError || error instanceof SetupError) return error.message;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * `pnpm demo` — runs the demo's command line and resolves with its exit code: 0 success, 1 the
 * run failed (one line on stderr; with `RCP_DEMO_DEBUG=1` its stack too), 2 a bad command line.
 * The modules that use the SDK are loaded only when needed, so `--help` and a bad flag work (and
 * are instant) even before the SDK is built. It never exits the process: the bin sets the code.
 *
 * @example
 * ```ts
 * process.exitCode = await runDemo(['--json']);
 * ```
 */
export async function runDemo(argv: readonly string[], io: DemoIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  try {
    let options: CliOptions;
    try {
      options = parseCliOptions(argv, env);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      await write(stderr, `rcp-demo: ${oneLine(error.message)}\n`);
      return 2;
    }
    if (options.command === 'help') {
      await write(stdout, `${HELP_TEXT}\n`);
      return 0;
    }
    if (options.command === 'serve') return await serve(options.port, options.token, stdout, io.signal);
    const report = await run(options);
    const text = options.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report, createTerminalStyle(shouldUseColor(stdout, env)));
    await write(stdout, text);
    return report.ok ? 0 : 1;
  } catch (error) {
    await write(stderr, `rcp-demo: ${oneLine(describeFailure(error))}\n`);
    if (env.RCP_DEMO_DEBUG === '1' && error instanceof Error) await write(stderr, `${error.stack ?? ''}\n`);
    return 1;
  }
}
