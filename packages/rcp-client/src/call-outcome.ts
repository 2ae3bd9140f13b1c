import type { RcpError } from 'rcp-errors';
import type { RcpClientTool } from './client-tool';

/**
 * A model's tool call as model APIs hand it over: the tool's name and its arguments, as an
 * object or as the JSON string most APIs return.
 *
 * @example
 * ```ts
 * const call: RcpToolCall = { name: 'get_note', arguments: '{"noteId":"n-1"}' };
 * ```
 */
export interface RcpToolCall {
  readonly name: string;
  /** An object, a JSON string of one, or absent (`{}`). */
  readonly arguments?: unknown;
}

/**
 * What the HTTP call of a successful tool call returned (2xx).
 *
 * @example
 * ```ts
 * const { status, data, contentType } = await client.execute(tool, { query: 'algebra' });
 * ```
 */
export interface RcpExecuteResult {
  /** The HTTP status (2xx). */
  status: number;
  /**
   * Parsed JSON (after `responseMappings`), the text of a non-JSON response, or `null` for an
   * empty body (204, `Content-Length: 0`).
   */
  data: unknown;
  /** The response's Content-Type header as sent, e.g. `application/json; charset=utf-8` (`''` when absent). */
  contentType: string;
}

/**
 * What `client.call()` returns, whatever happened: the result, or the RCP error that stopped
 * the call (an unknown tool, bad arguments, a resolver with no value, an HTTP error ...).
 * `tool` is the tool that was called, when the name was found. Pass it to `toModelResult`.
 *
 * @example
 * ```ts
 * const outcome = await client.call(discovery, { name: 'get_note', arguments: '{"noteId":"n-1"}' }, ctx);
 * if (outcome.ok) console.log(outcome.result.data);
 * else console.warn(outcome.error.code, outcome.error.message); // for the operator's logs
 * ```
 */
export type RcpCallOutcome =
  | { readonly ok: true; readonly tool: RcpClientTool; readonly result: RcpExecuteResult }
  | { readonly ok: false; readonly tool: RcpClientTool | undefined; readonly error: RcpError };
