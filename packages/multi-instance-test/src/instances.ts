/**
 * The processes of the multi-instance test: each fixture (`fixtures/*.mjs`) is started with node,
 * listens on a free port of 127.0.0.1, and prints `ready <port>` when it does.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One running instance. */
export interface Instance {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Ends it (SIGTERM, then SIGKILL if it lingers) and resolves once it exited. */
  stop(): Promise<void>;
}

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts `fixtures/<name>.mjs` with `env` added to this process's environment and resolves once
 * it printed `ready <port>`; rejects with its output when it exits first.
 *
 * @example
 * ```ts
 * const api = await startInstance('api-instance', { REDIS_URL: redis.url });
 * ```
 */
export function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(`../fixtures/${name}.mjs`, import.meta.url))], {
    cwd: packageDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  return new Promise<Instance>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`));
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /^ready (\d+)$/m.exec(output)?.[1];
      if (port === undefined) return;
      child.off('exit', onExit);
      resolve({ url: `http://127.0.0.1:${port}`, stop });
    });
    child.once('exit', onExit);
  });
}
