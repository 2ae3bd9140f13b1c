/**
 * What the client knows of a tool's streamed answer (SPEC §20.6) before any arrives: the plan
 * compiled at discovery, the Accept header and the media types of each format. The parser itself
 * (`collect-stream.ts`) is loaded when a streamed answer arrives.
 */
import type { CompiledResponseMappings } from 'rcp-manifest';
import { STREAM_MEDIA_TYPES } from 'rcp-internal';

/** A tool's stream as the client runs it: compiled once, at discovery. */
export interface StreamPlan {
  readonly format: 'sse' | 'ndjson';
  readonly collect: 'concat' | 'last' | 'array';
  /** The singular path taken from each event's JSON (as the mapping `{ value: field }`), when the tool names one. */
  readonly field: CompiledResponseMappings | undefined;
  readonly maxEvents: number | undefined;
  /** The tool's name, for the errors. */
  readonly tool: string;
}

/** What a stream became: one value, how many events made it, and whether it was cut. */
export interface CollectedStream {
  readonly data: unknown;
  readonly events: number;
  readonly bytes: number;
  readonly truncated: boolean;
}

/** The `Accept` header a streamed call sends (unless the tool sets one). */
export function streamAccept(format: StreamPlan['format']): string {
  return format === 'sse' ? 'text/event-stream' : `${STREAM_MEDIA_TYPES.ndjson.join(', ')}, application/json;q=0.5`;
}

/** Whether a media type (lower-case, no parameters) is one the plan's format is answered with. */
export function isStreamMediaType(plan: StreamPlan, mediaType: string): boolean {
  return STREAM_MEDIA_TYPES[plan.format].includes(mediaType);
}
