/**
 * Whether a media type (lower-case, no parameters) is one of `ranges`: equal to one (compared
 * without case), or within a `type/*` range of its own type. The one rule for a tool's
 * `responseMediaTypes` and the client's `mediaTypes` (SPEC §18.3) and a file param's `mediaTypes`
 * (SPEC §20.7), on the client and on the server.
 *
 * @example
 * ```ts
 * mediaTypeInRanges('image/png', ['image/*']); // true
 * mediaTypeInRanges('image/png', ['image/jpeg']); // false
 * ```
 */
export function mediaTypeInRanges(mediaType: string, ranges: readonly string[]): boolean {
  const slash = mediaType.indexOf('/');
  for (const range of ranges) {
    const lower = range.toLowerCase();
    if (lower === mediaType) return true;
    if (slash > 0 && lower.length === slash + 2 && lower.endsWith('/*') && mediaType.startsWith(lower.slice(0, slash + 1))) return true;
  }
  return false;
}

/**
 * The media types a streamed answer of each format (RCP 0.4 `stream.format`, SPEC §20.6) is
 * answered with, lower-case: what the client accepts as that stream and what the importer reads
 * as one.
 *
 * @example
 * ```ts
 * STREAM_MEDIA_TYPES.sse; // ['text/event-stream']
 * ```
 */
export const STREAM_MEDIA_TYPES: Readonly<Record<'sse' | 'ndjson', readonly string[]>> = Object.freeze({
  sse: Object.freeze(['text/event-stream']),
  ndjson: Object.freeze(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines']),
});
