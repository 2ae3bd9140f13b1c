import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The per-test limit of every test that starts a process (`node` on a built package, a README
 * snippet, the CLI). Starting Node and importing a built package takes well under a second on
 * an idle machine, but CI runs every package's suite at once on 2 cores, and there one start has
 * been seen to take more than 5 s (vitest's default limit). No test asserts a duration, so the
 * limit only has to be far above the worst start ever seen.
 */
export const SPAWN_TIMEOUT = 120_000;

/** What a finished process printed, and its exit code. */
export interface NodeRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <args>` asynchronously (the test's own local servers keep answering meanwhile) and
 * resolves with its exit code and output; it never rejects for a non-zero exit.
 *
 * @example
 * ```ts
 * it('prints the help', { timeout: SPAWN_TIMEOUT }, async () => {
 *   const { code, stdout } = await runNode(['dist/cli.js', '--help']);
 * });
 * ```
 */
export function runNode(args: readonly string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}): Promise<NodeRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...args],
      { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A preload for `runNode` / `spawn` (`['--import', FAKE_DNS_PRELOAD, ...]`): in that process every
 * host name ending in `.rcp-test` resolves to 127.0.0.1. A public-looking name that resolves to
 * loopback, for the rebinding cases, with nothing leaving this machine.
 */
export const FAKE_DNS_PRELOAD = fileURLToPath(new URL('../fake-dns.mjs', import.meta.url));
