/**
 * The model side of the agent loop, behind a small interface so a real LLM can replace the
 * scripted one: it sees a stage's catalog and the transcript so far, and emits tool calls in
 * the wire format LLM APIs use (`arguments` is a JSON string).
 */

/** One tool as a model sees it in a stage's catalog. */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly parameters: object;
}

/** A tool call as an LLM emits it. */
export interface ModelToolCall {
  readonly name: string;
  /** The arguments as a JSON text, exactly as LLM APIs deliver them. */
  readonly arguments: string;
}

/** What goes back to the model after a call (the bridge's `toModelResult`). */
export type ModelResult =
  | { readonly ok: true; readonly data: unknown }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string } };

/** One exchange of the turn so far. */
export interface TranscriptEntry {
  readonly call: ModelToolCall;
  readonly result: ModelResult;
}

/** What a model is asked for each step. */
export interface ModelStepInput {
  /** The tools of the stage this turn runs in, exactly as the transport lists them. */
  readonly catalog: readonly CatalogTool[];
  /** The calls made so far in this turn, and their results. */
  readonly transcript: readonly TranscriptEntry[];
}

/**
 * A model that picks the next tool call, or `undefined` when the turn is done. A real LLM
 * adapter implements this by sending the catalog and transcript to its API.
 *
 * @example
 * ```ts
 * const model: Model = {
 *   async nextToolCall({ catalog, transcript }) {
 *     return transcript.length === 0 ? { name: catalog[0]!.name, arguments: '{}' } : undefined;
 *   },
 * };
 * ```
 */
export interface Model {
  nextToolCall(input: ModelStepInput): Promise<ModelToolCall | undefined>;
}

/** One scripted step: the call to make (arguments as an object), or `undefined` to stop. */
export type ScriptedStep = (input: ModelStepInput) => { name: string; arguments: unknown } | undefined;

/**
 * A deterministic model that plays `steps` in order, serialising each step's arguments to a
 * JSON string as an LLM would. It does not check the catalog: like a prompt-injected model, it
 * may ask for anything, and the client and stages must hold.
 *
 * @example
 * ```ts
 * const model = createScriptedModel([() => ({ name: 'search_courses', arguments: { query: 'algebra' } })]);
 * await model.nextToolCall({ catalog: [], transcript: [] });
 * // { name: 'search_courses', arguments: '{"query":"algebra"}' }
 * ```
 */
export function createScriptedModel(steps: readonly ScriptedStep[]): Model {
  return {
    async nextToolCall(input) {
      const step = steps[input.transcript.length];
      const call = step?.(input);
      return call && { name: call.name, arguments: JSON.stringify(call.arguments) };
    },
  };
}

function lastResultOf(transcript: readonly TranscriptEntry[], name: string): unknown {
  for (let index = transcript.length - 1; index >= 0; index -= 1) {
    const entry = transcript[index];
    if (entry?.call.name === name && entry.result.ok) return entry.result.data;
  }
  return undefined;
}

function firstBeginnerCourse(searchResult: unknown): string | undefined {
  const results = (searchResult as { results?: unknown } | undefined)?.results;
  if (!Array.isArray(results)) return undefined;
  const courses = results as { id?: unknown; level?: unknown }[];
  const pick = courses.find((course) => course.level === 'beginner') ?? courses[0];
  return typeof pick?.id === 'string' ? pick.id : undefined;
}

/**
 * The learner's turn: "find me an algebra course for a beginner, sign me up, then show my
 * progress and my courses". It reads the search result from the transcript to pick the course,
 * and never knows (or sends) the learner's id.
 *
 * @example
 * ```ts
 * const model = createLearnerModel();
 * ```
 */
export function createLearnerModel(): Model {
  return createScriptedModel([
    () => ({ name: 'search_courses', arguments: { query: 'algebra' } }),
    ({ transcript }) => {
      const courseId = firstBeginnerCourse(lastResultOf(transcript, 'search_courses'));
      return courseId === undefined ? undefined : { name: 'enroll_in_course', arguments: { courseId, note: 'First algebra course for me' } };
    },
    () => ({ name: 'get_learner_profile', arguments: {} }),
    () => ({ name: 'list_learner_courses', arguments: {} }),
  ]);
}
