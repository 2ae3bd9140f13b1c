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
 * A binary answer passed on as it came (SPEC §18.3): its media type and its bytes, never
 * decoded as text.
 *
 * @example
 * ```ts
 * const { media } = await client.execute(tools.find((tool) => tool.name === 'get_chart')!, { id: 'c-1' });
 * if (media) await writeFile('chart.png', media.bytes); // media.mediaType === 'image/png'
 * ```
 */
export interface RcpMedia {
  /** The media type, lower-cased, without parameters (`image/png`, `application/pdf`). */
  readonly mediaType: string;
  /** Exactly the bytes the server sent (after content decoding: gzip and the like). */
  readonly bytes: Uint8Array;
}

/**
 * Whether a result has a next page and how to ask for it (SPEC §18.4): `nextArguments` are the
 * exact arguments of the same tool's next call (only params the model fills), or `null` when
 * there is more but the tool cannot ask for it (the next page's URL does not come from this
 * tool's params, say).
 *
 * @example
 * ```ts
 * const page: RcpPage = { hasMore: true, nextArguments: { query: 'algebra', cursor: 'c-2' } };
 * ```
 */
export interface RcpPage {
  readonly hasMore: boolean;
  readonly nextArguments: Readonly<Record<string, unknown>> | null;
}

/**
 * What the HTTP call of a successful tool call returned (2xx).
 *
 * @example
 * ```ts
 * const { status, data, contentType, page } = await client.execute(tool, { query: 'algebra' });
 * if (page?.nextArguments) await client.execute(tool, page.nextArguments);
 * ```
 */
export interface RcpExecuteResult {
  /** The HTTP status (2xx). */
  status: number;
  /**
   * Parsed JSON (after `responseMappings`), the text of a non-JSON response, or `null` for an
   * empty body (204, `Content-Length: 0`) and for a media answer (see `media`).
   */
  data: unknown;
  /** The response's Content-Type header as sent, e.g. `application/json; charset=utf-8` (`''` when absent). */
  contentType: string;
  /** A binary answer (an image, a PDF …): its media type and bytes (SPEC §18.3). Absent otherwise. */
  media?: RcpMedia;
  /**
   * There is a next page, or the tool's declared pagination says there is none (SPEC §18.4).
   * Absent when the response says nothing about pages.
   */
  page?: RcpPage;
  /**
   * `true` when a text answer was longer than `maxResponseBytes` and `data` is its start (SPEC
   * §11 step 6), or a streamed answer was cut — at its `maxEvents`, the size cap or the deadline
   * — and `data` holds the events read (SPEC §20.6). Absent otherwise.
   */
  truncated?: true;
  /** A streamed answer (SPEC §20.6): how many events were read. Absent otherwise. */
  events?: number;
  /**
   * The tool's long-running operation is still going on at the server (SPEC §20.8): the call's
   * deadline came first. `data` is the last status the server gave; `handle` resumes it
   * (`client.resume`), in this client or another that shares its `approvalSecret`, for the same
   * caller. Absent otherwise.
   */
  pending?: RcpPending;
}

/**
 * A long-running operation that outlived its call (SPEC §20.8): the sealed handle that resumes
 * it and the seconds the server asked to wait before checking again (at least 1).
 *
 * @example
 * ```ts
 * const result = await client.execute(tool, { prompt: 'a lighthouse' }, ctx);
 * if (result.pending) setTimeout(() => client.resume(discovery, result.pending!.handle, ctx), result.pending.checkAfterSeconds * 1000);
 * ```
 */
export interface RcpPending {
  /** Opaque (`rcp1.` and base64url): sealed under the client's secret, for this caller, for a day. */
  readonly handle: string;
  readonly checkAfterSeconds: number;
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
