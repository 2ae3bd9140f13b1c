/**
 * The APIs the fake answers, by the path the provider SDKs post to (with or without `/v1`):
 * `chat.completions` is OpenAI's `POST /v1/chat/completions`, `responses` OpenAI's `POST /v1/responses`,
 * `messages` Anthropic's `POST /v1/messages`.
 *
 * @example
 * ```ts
 * const chatOnly = fake.requests.filter((request) => request.api === ('chat.completions' satisfies ModelApi));
 * ```
 */
export type ModelApi = 'chat.completions' | 'responses' | 'messages';

/**
 * One tool call the scripted model makes. `arguments` is what the model "wrote": an object is sent as its JSON text
 * (OpenAI) or as the `input` object (Anthropic); a string is sent as written, so a test can script arguments that are
 * not JSON (for Anthropic a string must be the JSON text of an object unless the answer is streamed).
 *
 * @example
 * ```ts
 * const call: ScriptedToolCall = { name: 'get_note', arguments: { noteId: 'n-1' } };
 * ```
 */
export interface ScriptedToolCall {
  /** The tool's name, as the model would send it (it need not be one of the offered tools). */
  readonly name: string;
  /**
   * The call's arguments.
   * @default {}
   */
  readonly arguments?: Readonly<Record<string, unknown>> | string;
  /**
   * The call's id (`call_id` / `tool_call_id` / `tool_use_id`).
   * @default `call_<n>` for OpenAI, `toolu_<n>` for Anthropic (n counts the fake's generated ids of that kind from 1)
   */
  readonly id?: string;
}

/**
 * One answer of the scripted model: text, tool calls, or both (text first). The fake writes it in the shape of the
 * API that was called — a Chat Completion, a Response or a Message — or, when the request asked for `stream: true`,
 * as that API's server-sent events.
 *
 * @example
 * ```ts
 * const turns: ModelTurn[] = [
 *   { toolCalls: [{ name: 'list_notes', arguments: { tag: 'home' } }] },
 *   { text: 'You have one note: Groceries.' },
 * ];
 * ```
 */
export interface ModelTurn {
  /** What the model says. */
  readonly text?: string;
  /** The tools the model calls (at least one, when given). */
  readonly toolCalls?: readonly ScriptedToolCall[];
}

/**
 * An answer given exactly as written — an HTTP status and a JSON body — for a shape the turns do not cover (an API
 * error, a rate limit, an output item of another kind). Never streamed: the body is sent as JSON even when the
 * request asked for a stream.
 *
 * @example
 * ```ts
 * const limited: ModelRawAnswer = { status: 429, body: { error: { message: 'Slow down', type: 'rate_limit_error' } } };
 * ```
 */
export interface ModelRawAnswer {
  /**
   * The HTTP status.
   * @default 200
   */
  readonly status?: number;
  /** The JSON body, sent as given. */
  readonly body: unknown;
}

/**
 * A tool result the client sent back in a request: a `tool` message (Chat Completions), a `function_call_output`
 * item (Responses) or a `tool_result` block (Messages).
 *
 * @example
 * ```ts
 * const [result]: readonly ToolResultSeen[] = fake.requests[1]!.toolResults;
 * console.log(result?.callId, JSON.parse(result?.text ?? '{}'));
 * ```
 */
export interface ToolResultSeen {
  /** The call it answers (`tool_call_id`, `call_id` or `tool_use_id`). */
  readonly callId: string;
  /** The result's content as sent: a string, or a list of content parts. */
  readonly output: unknown;
  /** The result's text: the string, or the `text` of its parts joined ('' when it has none). */
  readonly text: string;
  /** Anthropic's `is_error` flag (`false` for the OpenAI APIs, which have none). */
  readonly isError: boolean;
}

/**
 * One request the fake received, as the provider SDK sent it, read for the checks a test makes most.
 *
 * @example
 * ```ts
 * const first: ModelRequest = fake.requests[0]!;
 * expect(first.toolNames).toContain('list_notes');
 * ```
 */
export interface ModelRequest {
  /** Which API was called. */
  readonly api: ModelApi;
  /** The request path, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Whether the request asked for server-sent events (`stream: true`). */
  readonly stream: boolean;
  /** The request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The names of the tools offered to the model, in order. */
  readonly toolNames: readonly string[];
  /** The tool results the request carries, in order. */
  readonly toolResults: readonly ToolResultSeen[];
}

/**
 * What a scripted answer may be: a turn, a raw answer, or a function of the request that returns one (to answer from
 * what the client sent, e.g. echo a tool result).
 *
 * @example
 * ```ts
 * const echo: ModelScriptStep = (request) => ({ text: `got ${request.toolResults.length} result(s)` });
 * ```
 */
export type ModelScriptStep = ModelTurn | ModelRawAnswer | ((request: ModelRequest) => ModelTurn | ModelRawAnswer);

/**
 * Options of {@link startModelFake}.
 *
 * @example
 * ```ts
 * const options: ModelFakeOptions = { turns: [{ text: 'Hello.' }] };
 * const paging: ModelFakeOptions = {
 *   fallback: (request) => (request.toolResults.length < 3 ? { toolCalls: [{ name: 'next_page' }] } : { text: 'Done.' }),
 * };
 * ```
 */
export interface ModelFakeOptions {
  /**
   * The answers, one per request, in order (more can be added with `script`). A request with no answer left gets a
   * 400 in the API's error shape, which the SDK throws (4xx answers are not retried).
   * @default []
   */
  readonly turns?: readonly ModelScriptStep[];
  /**
   * The answer to every request once the scripted answers are used up — typically a function that answers from the
   * request (a model that pages through a list until the tool result says it is done).
   * @default none: such a request gets the 400
   */
  readonly fallback?: ModelScriptStep;
  /**
   * The port on 127.0.0.1.
   * @default 0 (any free port)
   */
  readonly port?: number;
}

/**
 * A running fake. Point the provider SDK at it: `baseURL: fake.baseURL` for `openai`, `@ai-sdk/openai` and
 * `@openai/agents`' OpenAI client; `baseURL: fake.origin` for `@anthropic-ai/sdk`.
 *
 * @example
 * ```ts
 * const fake: ModelFake = await startModelFake({ turns: [{ text: 'Hi.' }] });
 * const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL });
 * ```
 */
export interface ModelFake {
  /** `http://127.0.0.1:<port>` (the Anthropic SDK's `baseURL`). */
  readonly origin: string;
  /** `http://127.0.0.1:<port>/v1` (the OpenAI SDK's `baseURL`). */
  readonly baseURL: string;
  /** Every model request received so far, in order. */
  readonly requests: readonly ModelRequest[];
  /** How many scripted answers are still waiting for a request. */
  readonly pending: number;
  /** Adds answers after the ones still waiting. */
  script(...steps: ModelScriptStep[]): void;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}
