import type { ModelRequest, ModelTurn } from './types';

/** One server-sent event: its `event:` name (none for Chat Completions) and its `data:` (JSON, or the text `[DONE]`). */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

/** What an API's writer makes of a turn: a JSON body, or the events of a stream. */
export type WrittenAnswer = { readonly json: unknown } | { readonly events: readonly SseEvent[] };

/** A new id with a prefix, unique within one fake (`call_3`). */
export type NextId = (prefix: string) => string;

/** Writes one turn in the shape of one API. Throws a plain Error with a message for the client when it cannot. */
export type AnswerWriter = (turn: ModelTurn, request: ModelRequest, nextId: NextId) => WrittenAnswer;

/** The model name an answer carries: the one the request named. */
export const modelOf = (request: ModelRequest): string => (typeof request.body.model === 'string' ? request.body.model : 'rcp-model-fake');

/** Text is streamed in pieces of this many characters, tool-call arguments likewise: a client must join them. */
export const STREAM_PIECE = 8;
