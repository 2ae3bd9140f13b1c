import { fork, type ChildProcess } from 'node:child_process';

/** Messages a bench child process sends to its parent. */
export type ChildMessage = { type: 'ready'; port: number } | { type: 'cpu'; id: number; user: number; system: number } | { type: 'error'; message: string };

/** Messages a parent sends to a bench child process. */
export type ParentMessage = { type: 'cpu'; id: number };

const children = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
}

/** A forked bench child that answers CPU-usage queries over IPC. */
export interface BenchChild {
  process: ChildProcess;
  port: number;
  /** Total CPU (user + system) the child has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Forks `modulePath` with an IPC channel, waits for its `ready` message (bounded by `timeoutMs`),
 * and makes sure it is killed when this process exits, even on error.
 */
export async function startChild(
  modulePath: string,
  args: string[],
  options: { timeoutMs?: number; stdio?: 'inherit' | 'ignore'; execArgv?: string[] } = {},
): Promise<BenchChild> {
  installExitHook();
  const child = fork(modulePath, args, {
    execArgv: options.execArgv ?? [],
    stdio: [options.stdio ?? 'inherit', options.stdio ?? 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${modulePath} did not start within ${options.timeoutMs ?? 15_000} ms`)), options.timeoutMs ?? 15_000);
    const onMessage = (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message.port);
      } else if (message.type === 'error') {
        clearTimeout(timer);
        reject(new Error(message.message));
      }
    };
    child.on('message', onMessage);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${modulePath} exited early with code ${code}`));
    });
  });
  let nextId = 0;
  const pending = new Map<number, (micros: number) => void>();
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'cpu') {
      pending.get(message.id)?.(message.user + message.system);
      pending.delete(message.id);
    }
  });
  return {
    process: child,
    port,
    cpuMicros() {
      const id = nextId++;
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error('child did not report CPU usage in time'));
        }, 5_000);
        pending.set(id, (micros) => {
          clearTimeout(timer);
          resolve(micros);
        });
        child.send({ type: 'cpu', id } satisfies ParentMessage);
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Child side: report readiness, answer CPU queries, and exit when the parent goes away
 * (IPC disconnect), so no server outlives the bench.
 */
export function serveAsChild(port: number): void {
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send?.({ type: 'cpu', id: message.id, user: usage.user, system: usage.system } satisfies ChildMessage);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  process.send?.({ type: 'ready', port } satisfies ChildMessage);
}
