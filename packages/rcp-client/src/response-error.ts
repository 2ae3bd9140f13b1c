import { RcpError } from 'rcp-errors';

/**
 * Why a successful answer did not reach the model as data (see {@link RcpResponseError}).
 *
 * @example
 * ```ts
 * const problem: RcpResponseProblem = 'media-not-allowed'; // a binary type the client does not pass on
 * ```
 */
export type RcpResponseProblem =
  | 'media-too-large'
  | 'media-not-allowed'
  | 'refused-by-inspector'
  | 'not-a-stream'
  | 'stream-error'
  | 'stream-malformed'
  | 'no-status-location';

/**
 * Thrown when a tool's 2xx answer cannot be handed to the model as data, with what the model may
 * read about it (`toModelResult` builds its sentence from these fields, never from the message):
 *
 * - `RCP_RESPONSE_TOO_LARGE`, `problem: 'media-too-large'`: a media part over `maxMediaBytes`
 *   (`mediaType`, `size`, `limit`).
 * - `RCP_INVALID_RESPONSE`, `problem: 'media-not-allowed'`: a binary answer of a type neither
 *   the client's `mediaTypes` nor the tool's `responseMediaTypes` name (`mediaType`) — it is
 *   never decoded as text.
 * - `RCP_INVALID_RESPONSE`, `problem: 'refused-by-inspector'`: the client's `inspectResult`
 *   refused the result, or threw (`reason`: the operator's reason, when it gave one).
 * - `RCP_INVALID_RESPONSE`, `problem: 'not-a-stream'`: a tool that declares a stream (RCP 0.4)
 *   was answered with another media type (`mediaType`); nothing of the body is read.
 * - `RCP_INVALID_RESPONSE`, `problem: 'stream-error'`: the server sent an SSE `error` event
 *   (`event`: its 1-based index); its data is the server's and is not shown.
 * - `RCP_INVALID_RESPONSE`, `problem: 'stream-malformed'`: an event that cannot be read — not
 *   JSON where JSON is needed, or not text where `concat` joins text (`event`: its index).
 * - `RCP_INVALID_RESPONSE`, `problem: 'no-status-location'`: a tool that declares a long-running
 *   operation (RCP 0.4) answered 202 without a status URL where it declares one.
 *
 * @example
 * ```ts
 * import { RcpResponseError } from 'rcp-client';
 * const outcome = await client.call(discovery, { name: 'get_report', arguments: { id: 'r-1' } });
 * if (!outcome.ok && outcome.error instanceof RcpResponseError) console.warn(outcome.error.problem, outcome.error.mediaType);
 * ```
 */
export class RcpResponseError extends RcpError<'RCP_RESPONSE_TOO_LARGE' | 'RCP_INVALID_RESPONSE'> {
  /** The tool that was called. */
  readonly tool: string;
  readonly problem: RcpResponseProblem;
  /** The answer's media type (lower-cased, no parameters), for the media problems. */
  readonly mediaType: string | undefined;
  /** The answer's size in bytes, for `media-too-large`. */
  readonly size: number | undefined;
  /** The client's `maxMediaBytes`, for `media-too-large`. */
  readonly limit: number | undefined;
  /** The inspector's reason, for `refused-by-inspector` (the model reads it). */
  readonly reason: string | undefined;
  /** The 1-based index of the stream event, for `stream-error` and `stream-malformed`. */
  readonly event: number | undefined;

  constructor(
    problem: RcpResponseProblem,
    message: string,
    details: { tool: string; mediaType?: string; size?: number; limit?: number; reason?: string; event?: number; cause?: unknown },
  ) {
    super(problem === 'media-too-large' ? 'RCP_RESPONSE_TOO_LARGE' : 'RCP_INVALID_RESPONSE', message, 'cause' in details ? { cause: details.cause } : {});
    this.tool = details.tool;
    this.problem = problem;
    this.mediaType = details.mediaType;
    this.size = details.size;
    this.limit = details.limit;
    this.reason = details.reason;
    this.event = details.event;
  }
}
