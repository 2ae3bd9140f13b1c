import { HELP_TEXT, parseCliOptions, type CliOptions } from './cli-options';
import { DemoCheckError, SetupError, UsageError } from './demo-errors';
import { renderText } from './render-text';
import type { DemoReport } from './report';
import { createTerminalStyle, shouldUseColor } from './terminal-style';

/**
 * `pnpm demo` — the entry point. Output goes to stdout; a failure is ONE line on stderr and a
 * non-zero exit code (2: bad command line, 1: anything else). Set RCP_DEMO_DEBUG=1 for a stack.
 * The modules that use the SDK are loaded only when needed, so `--help` and a bad flag work
 * (and are instant) even before the SDK is built.
 */

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
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

/** `--serve`: the learning platform on 127.0.0.1 until Ctrl-C, with the rcp commands to look at it. */
async function serve(port: number, token: string | undefined): Promise<number> {
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
  await write(process.stdout, `${lines.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await platform.close();
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliOptions(argv, process.env);
  } catch (error) {
    if (error instanceof UsageError) {
      await write(process.stderr, `rcp-demo: ${oneLine(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  if (options.command === 'help') {
    await write(process.stdout, `${HELP_TEXT}\n`);
    return 0;
  }
  if (options.command === 'serve') return serve(options.port, options.token);
  const report = await run(options);
  const text = options.json ? `${JSON.stringify(report, null, 2)}\n` : renderText(report, createTerminalStyle(shouldUseColor(process.stdout, process.env)));
  await write(process.stdout, text);
  return report.ok ? 0 : 1;
}

function describeFailure(error: unknown): string {
  if (error instanceof DemoCheckError || error instanceof SetupError) {
    return error.message;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    await write(process.stderr, `rcp-demo: ${oneLine(describeFailure(error))}\n`);
    if (process.env.RCP_DEMO_DEBUG === '1' && error instanceof Error) {
      await write(process.stderr, `${error.stack ?? ''}\n`);
    }
    process.exit(1);
  },
);
