/**
 * A streamed answer collected into one result (SPEC §20.6): Server-Sent Events or NDJSON parsed
 * chunk by chunk as the body arrives — never buffered beyond one unfinished line and the
 * collected value — under the call's byte cap, its deadline and the tool's `maxEvents`.
 */
import type { RcpStreamProgress } from '../../client-types';
import { RcpResponseError } from '../../response-error';
import type { Deadline } from '../send/deadline';
import type { BodyReader } from '../send/transport-types';
import type { CollectedStream, StreamPlan } from './stream-plan';

/** The data an SSE stream sends to say it is over (OpenAI's convention, widely copied). */
const DONE = '[DONE]';
const NOTHING: unique symbol = Symbol('nothing');

function malformed(plan: StreamPlan, index: number, what: string): RcpResponseError {
  return new RcpResponseError('stream-malformed', `Tool "${plan.tool}": event ${index} of the stream ${what}`, { tool: plan.tool, event: index });
}

/** Collects values per the plan: joined text, the last one, or all of them. */
class Collector {
  readonly #plan: StreamPlan;
  #text = '';
  #last: unknown = null;
  readonly #all: unknown[] = [];

  constructor(plan: StreamPlan) {
    this.#plan = plan;
  }

  add(value: unknown, index: number): void {
    const collect = this.#plan.collect;
    if (collect === 'array') this.#all.push(value);
    else if (collect === 'last') this.#last = value;
    else if (typeof value === 'string') this.#text += value;
    else throw malformed(this.#plan, index, `gave ${value === null ? 'null' : typeof value}, not text to concatenate`);
  }

  get value(): unknown {
    const collect = this.#plan.collect;
    return collect === 'array' ? this.#all : collect === 'last' ? this.#last : this.#text;
  }
}

/** The value one event contributes, or NOTHING when its field matches nothing. */
function eventValue(plan: StreamPlan, data: string, index: number, isJsonText: boolean): unknown {
  if (plan.field === undefined && !isJsonText) return data;
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw malformed(plan, index, 'is not valid JSON');
  }
  if (plan.field === undefined) return json;
  const taken = plan.field.apply(json);
  return Object.hasOwn(taken, 'value') ? taken['value'] : NOTHING;
}

/**
 * Reads `reader` to the end, `maxBytes`, `maxEvents` or the deadline, collecting each event. At
 * the byte cap or `maxEvents` the stream is cancelled (the connection closed) and the result is
 * `truncated`; at the deadline too, when at least one event was read (none: the abort
 * propagates, `RCP_TIMEOUT`). A caller's abort and a network failure propagate as they are. An
 * SSE `error` event or a line that cannot be read is `RcpResponseError` naming the event.
 */
export async function collectStream(
  reader: BodyReader,
  plan: StreamPlan,
  maxBytes: number,
  deadline: Deadline,
  onProgress: ((progress: RcpStreamProgress) => void) | undefined,
): Promise<CollectedStream> {
  const collector = new Collector(plan);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: false });
  let events = 0;
  let bytes = 0;
  let pending = '';
  // SSE: the event being built (RFC: the "data buffer" and the "event type buffer").
  let dataLines: string[] | undefined;
  let eventType = '';
  let ended = false;
  const finish = (truncated: boolean): CollectedStream => ({ data: collector.value, events, bytes, truncated });

  /** One complete event's data: counted, collected, reported. Returns true when the stream must stop. */
  const dispatch = (data: string, type: string): boolean => {
    if (plan.format === 'sse' && data === DONE) {
      ended = true;
      return true;
    }
    events += 1;
    if (type === 'error') {
      throw new RcpResponseError('stream-error', `Tool "${plan.tool}": the server sent an error event (event ${events}) in its stream`, {
        tool: plan.tool,
        event: events,
      });
    }
    const value = eventValue(plan, data, events, plan.format === 'ndjson');
    if (value !== NOTHING) collector.add(value, events);
    if (onProgress !== undefined) {
      try {
        onProgress(Object.freeze({ events, bytes }));
      } catch {
        // Progress is observation: it never changes the call.
      }
    }
    return plan.maxEvents !== undefined && events >= plan.maxEvents;
  };

  /** One line (without its end). Returns true when the stream must stop. */
  const line = (text: string): boolean => {
    if (plan.format === 'ndjson') return text.trim() === '' ? false : dispatch(text, '');
    if (text === '') {
      if (dataLines === undefined) {
        eventType = '';
        return false;
      }
      const data = dataLines.join('\n');
      const type = eventType;
      dataLines = undefined;
      eventType = '';
      return dispatch(data, type);
    }
    if (text.charCodeAt(0) === 0x3a /* : a comment */) return false;
    const colon = text.indexOf(':');
    const name = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (name === 'data') (dataLines ??= []).push(value);
    else if (name === 'event') eventType = value;
    // `id` and `retry` tell a reconnecting browser where to resume: one call never reconnects.
    return false;
  };

  /** Where the search for the next line end resumes: `pending` before it holds none (a long line is scanned once). */
  let scanned = 0;
  /** Splits `pending` into lines (LF, CRLF or CR); returns true when the stream must stop. */
  const lines = (final: boolean): boolean => {
    let start = 0;
    let index = scanned;
    for (; index < pending.length; index++) {
      const code = pending.charCodeAt(index);
      if (code !== 0x0a && code !== 0x0d) continue;
      // A CR at the very end of a chunk may be the first half of a CRLF: wait for the next one.
      if (code === 0x0d && index === pending.length - 1 && !final) break;
      const stop = line(pending.slice(start, index));
      if (code === 0x0d && pending.charCodeAt(index + 1) === 0x0a) index += 1;
      start = index + 1;
      if (stop) return true;
    }
    pending = pending.slice(start);
    scanned = index - start;
    if (final && pending !== '') {
      const rest = pending;
      pending = '';
      // NDJSON's last line may lack its line feed; an SSE event without its blank line is not dispatched.
      if (line(rest)) return true;
    }
    return false;
  };

  for (;;) {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (deadline.timedOut() && events > 0) return finish(true);
      throw error;
    }
    if (chunk === undefined) {
      pending += decoder.decode();
      lines(true);
      return finish(false);
    }
    const room = maxBytes - bytes;
    const cut = chunk.byteLength > room;
    bytes += cut ? room : chunk.byteLength;
    pending += decoder.decode(cut ? chunk.subarray(0, room) : chunk, { stream: !cut });
    if (lines(false) || cut) {
      reader.cancel();
      return finish(!ended);
    }
  }
}
