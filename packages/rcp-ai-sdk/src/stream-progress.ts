import type { JSONSchema7 } from 'ai';
import type { ModelResult, RcpStreamProgress } from 'rcp-client';

/**
 * What a streamed tool's `execute` yields while its answer is read (SPEC §20.6): the AI SDK's
 * *preliminary tool result* — in `streamText`'s `fullStream` a `tool-result` part with
 * `preliminary: true`, in a UI message an `output-available` part with `preliminary: true`. Only
 * counts, no text of the server's, so it is safe to show anywhere: the events read so far and the
 * bytes they took. The model never reads it: `toModelOutput` is given the final result only.
 * Tell it from a result by `'progress' in output`.
 *
 * @example
 * ```ts
 * for await (const part of streamText({ model, tools: rcp.tools, prompt }).fullStream) {
 *   if (part.type === 'tool-result' && part.preliminary && 'progress' in part.output) console.log(part.output.progress.events);
 * }
 * ```
 */
export interface AISDKToolProgress {
  /** The events read so far and the bytes they took (rcp-client's `onProgress`). */
  readonly progress: RcpStreamProgress;
}

/**
 * What an RCP tool's `execute` gives the AI SDK: its result, or (a streamed tool, preliminary) its progress.
 *
 * @example
 * ```ts
 * const text = (output: AISDKToolOutput) => ('progress' in output ? `${output.progress.events} events` : JSON.stringify(output));
 * ```
 */
export type AISDKToolOutput = ModelResult | AISDKToolProgress;

/** The JSON Schema of {@link AISDKToolProgress}, beside a streamed tool's result schema (a UI message may hold a preliminary output). */
export const toolProgressSchema: JSONSchema7 = {
  type: 'object',
  properties: {
    progress: {
      type: 'object',
      properties: { events: { type: 'integer', minimum: 0 }, bytes: { type: 'integer', minimum: 0 } },
      required: ['events', 'bytes'],
    },
  },
  required: ['progress'],
};

/**
 * Runs a streamed call as an async generator, the AI SDK's contract for preliminary results: each
 * yield is a preliminary result and the last is the final one. Progress is yielded when the AI SDK
 * asks for the next value, the latest only — a stream of 1,000 events read faster than the
 * consumer reads yields fewer, never a backlog — and the call never waits for the consumer.
 */
export async function* withProgress(
  run: (onProgress: (progress: RcpStreamProgress) => void) => Promise<ModelResult>,
): AsyncGenerator<AISDKToolOutput, void, undefined> {
  let latest: RcpStreamProgress | undefined;
  let settled = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const result = run((progress) => {
    latest = progress;
    notify();
  });
  const done = result.then(
    () => undefined,
    () => undefined,
  );
  void done.then(() => {
    settled = true;
    notify();
  });
  while (!settled) {
    if (latest === undefined) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      continue;
    }
    const progress = latest;
    latest = undefined;
    yield Object.freeze({ progress });
  }
  yield await result;
}
