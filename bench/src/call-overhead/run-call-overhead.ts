import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CallClientMessage, CallOverheadConfig, CallOverheadResult } from './types.js';

/**
 * Runs the call-overhead scenario in a child process (stdout → /dev/null, so UTCP's per-call logging
 * costs what it costs when stdout is not a terminal, and never mixes with the table). Bounded and
 * killed on exit.
 */
export function runCallOverhead(config: CallOverheadConfig): Promise<CallOverheadResult> {
  const clientPath = fileURLToPath(new URL('./call-client.js', import.meta.url));
  const child = fork(clientPath, [JSON.stringify(config)], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.on('exit', kill);
  return new Promise<CallOverheadResult>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      kill();
      finish(new Error('call-overhead child exceeded 270 s'));
    }, 270_000);
    const finish = (error: Error | undefined, result?: CallOverheadResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      process.off('exit', kill);
      if (error) reject(error);
      else resolve(result!);
    };
    child.on('message', (message: CallClientMessage) => {
      if (message.type === 'result') finish(undefined, message.result);
      else finish(new Error(message.message));
    });
    child.once('exit', (code, signal) => finish(new Error(`call-overhead child exited (code ${code}, signal ${signal}) without a result`)));
  });
}
