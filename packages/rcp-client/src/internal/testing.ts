/**
 * Test support for this package's tests only (never imported by `src/index.ts`, so never
 * shipped): serve a manifest on a real test server and capture an expected RCP error.
 */
import { expect } from 'vitest';
import { isRcpError, type RcpErrorCode, type RcpErrorOf } from 'rcp-errors';

export { serveManifest } from 'rcp-test-utils';

/** Awaits `action`, expects it to fail with an RCP error of `code`, and returns the error. */
export async function rejectsWith<Code extends RcpErrorCode>(action: Promise<unknown> | (() => unknown), code: Code): Promise<RcpErrorOf<Code>> {
  let outcome: unknown;
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    outcome = error;
  }
  if (!isRcpError(outcome)) throw new Error(`expected ${code}, got ${outcome === undefined ? 'success' : String(outcome)}`);
  expect(outcome.code, outcome.message).toBe(code);
  return outcome as RcpErrorOf<Code>;
}

/** Everything an error exposes as text: message, JSON, String(), and the same along its cause chain. */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      parts.push(current.message, String(current), current.stack ?? '');
      try {
        parts.push(JSON.stringify(current));
      } catch {
        // a cause that cannot be serialised has nothing more to show
      }
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join('\n');
}
