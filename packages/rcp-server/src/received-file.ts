/**
 * What a tool's handler receives for a file param (RCP 0.4, SPEC §20.7): one file part of the
 * multipart body, read under the server's limits and checked against the param's `mediaTypes` and
 * `maxBytes` before the handler runs.
 *
 * @example
 * ```ts
 * const handler = ({ values }: ToolCall<unknown, { image: ReceivedFile }>) => ({
 *   name: values.image.filename,
 *   type: values.image.mediaType,
 *   size: values.image.size,
 * });
 * ```
 */
export interface ReceivedFile {
  /** The part's `filename` (the client's `%22`, `%0D`, `%0A` read back as `"`, CR, LF, as WHATWG's parser does). */
  readonly filename: string;
  /** The part's media type, lower-cased, without parameters (`application/octet-stream` when the part had none). */
  readonly mediaType: string;
  /** The file's size in bytes. */
  readonly size: number;
  /** The file's bytes, exactly as received. */
  readonly bytes: Uint8Array;
  /** The same bytes as a stream, for a handler that passes them on (a new stream each call). */
  stream(): ReadableStream<Uint8Array>;
}
