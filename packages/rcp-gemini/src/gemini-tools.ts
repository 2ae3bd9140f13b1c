import {
  CHECK_OPERATION_TOOL,
  checkOperationOffer,
  checkOperation,
  createToolSet,
  jsonSchemaCopy,
  toModelResult,
  toModelText,
  type ModelResult,
  type RcpClient,
  type RcpContextArgs,
  type RcpContextClient,
  type RcpDiscovery,
  type RcpExecuteOptions,
  type RcpToolSet,
  type RcpToolSetOptions,
} from 'rcp-client';
import { toGeminiParameters, type GeminiSchema } from './gemini-schema';

/**
 * A Gemini function declaration: `parametersJsonSchema` (JSON Schema, the default form) or
 * `parameters` (the OpenAPI subset, a {@link GeminiSchema}; absent for a function without
 * arguments). Both are typed as plain records so that the declarations are `@google/genai`'s
 * `FunctionDeclaration[]` with no cast: that SDK types `Schema.type` as its own `Type` enum,
 * which no string literal type matches.
 *
 * @example
 * ```ts
 * const declaration: GeminiFunctionDeclaration = { name: 'get_note', description: 'Gets one note.', parametersJsonSchema: {} };
 * ```
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parametersJsonSchema?: Record<string, unknown>;
  /** A {@link GeminiSchema} (`toGeminiParameters`' output). */
  parameters?: Record<string, unknown>;
}

/**
 * A function call of a Gemini response (`response.functionCalls`, or a part's `functionCall`).
 *
 * @example
 * ```ts
 * const call: GeminiFunctionCall = { id: 'c1', name: 'get_note', args: { noteId: 'n-1' } };
 * ```
 */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/**
 * Media inside a function response (`FunctionResponse.parts` of the Gemini API and
 * `@google/genai`): the bytes as base64, with their media type.
 *
 * @example
 * ```ts
 * const part: GeminiFunctionResponseMediaPart = { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo...' } };
 * ```
 */
export interface GeminiFunctionResponseMediaPart {
  inlineData: { mimeType: string; data: string };
}

/**
 * The part that answers one function call: `response` is what `toModelText` says, as a JSON
 * object (`{ ok, data, … }`; with untrusted-text marking on, `{ output: <the marked text> }`), and
 * `parts` carries an image or a PDF answer's bytes.
 *
 * @example
 * ```ts
 * const part: GeminiFunctionResponsePart = { functionResponse: { id: 'c1', name: 'get_note', response: { ok: true, data: {} } } };
 * ```
 */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: Record<string, unknown>; parts?: GeminiFunctionResponseMediaPart[] };
}

/**
 * The media types Gemini takes inside a function response (docs/behaviour.md): PNG, JPEG and WebP images
 * and PDF documents, as `inlineData` parts. Any other type is never sent as media; the text says
 * what was received and how big.
 *
 * @example
 * ```ts
 * import { GEMINI_MEDIA_TYPES } from 'rcp-gemini';
 * GEMINI_MEDIA_TYPES.includes('image/gif'); // false
 * ```
 */
export const GEMINI_MEDIA_TYPES: readonly string[] = Object.freeze(['image/png', 'image/jpeg', 'image/webp', 'application/pdf']);

/**
 * A model result as a function response: `response` is `toModelText`'s text as the JSON object
 * it is (media bytes left out) — or, when the text is marked untrusted, that text under
 * `output` (Gemini's key for a function's output) — and an image or PDF answer's base64, as it
 * is, in `parts`. Other media are the text alone, which says what was received and how big.
 */
function toFunctionResponse(name: string, result: ModelResult): GeminiFunctionResponsePart['functionResponse'] {
  const text = toModelText(result);
  const response = result.boundary === undefined ? (JSON.parse(text) as Record<string, unknown>) : { output: text };
  const media = result.ok ? result.media : undefined;
  if (media === undefined || !GEMINI_MEDIA_TYPES.includes(media.mediaType)) return { name, response };
  return { name, response, parts: [{ inlineData: { mimeType: media.mediaType, data: media.data } }] };
}

/**
 * Options of {@link createGeminiTools}.
 *
 * @example
 * ```ts
 * createGeminiTools(client, discovery, { form: 'parameters' });
 * ```
 */
export interface GeminiToolsOptions extends RcpToolSetOptions {
  /**
   * `parametersJsonSchema` sends the model-facing JSON Schema as is; `parameters` projects it onto
   * Gemini's OpenAPI subset with {@link toGeminiParameters} (upper-case types, `additionalProperties`
   * and non-string enums left out, no `parameters` for a tool without arguments).
   * @default 'parametersJsonSchema'
   */
  form?: 'parametersJsonSchema' | 'parameters';
}

/**
 * RCP tools for Gemini, made by {@link createGeminiTools}.
 *
 * @example
 * ```ts
 * const rcp = createGeminiTools(client, discovery);
 * const config = { tools: [{ functionDeclarations: rcp.functionDeclarations }] };
 * ```
 */
export interface GeminiTools<Context = any> {
  /**
   * For `config.tools: [{ functionDeclarations }]`: fresh copies on every read. When a tool of the
   * set is long-running (RCP 0.4 `operation`) and none is named `check_operation`, rcp-client's
   * `CHECK_OPERATION_TOOL` follows the set's tools; `runFunctionCalls` runs it with `checkOperation`.
   */
  readonly functionDeclarations: GeminiFunctionDeclaration[];
  /** The tools, under the names the model sees (before Gemini's name rule, see {@link createGeminiTools}). */
  readonly toolSet: RcpToolSet;
  /** The tool set's discovery warnings (`toolSet.warnings`), then the conversion caveats, per tool. */
  readonly warnings: readonly string[];
  /**
   * Runs the function calls through `client.call`, all at once, and returns one
   * `functionResponse` part per call, in order (an image or PDF answer's bytes in its `parts`).
   * Never throws for what a call runs into.
   * @example
   * ```ts
   * contents.push(response.candidates[0].content, { role: 'user', parts: await rcp.runFunctionCalls(response.functionCalls, ctx) });
   * ```
   */
  runFunctionCalls(
    calls: readonly GeminiFunctionCall[] | undefined,
    ...rest: RcpContextArgs<Context, [options?: RcpExecuteOptions]>
  ): Promise<GeminiFunctionResponsePart[]>;
}

/** Gemini's longest function name (its own limit, which happens to equal RCP's tool-name length). */
const GEMINI_NAME_MAX_LENGTH = 64;

/** Gemini function names must start with a letter or `_`: anything else gets a leading `_`. */
function geminiName(name: string): string {
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`.slice(0, GEMINI_NAME_MAX_LENGTH);
}

/**
 * Turns discovered RCP tools into Gemini function declarations and runs the model's function
 * calls through `client.call`. No Google SDK at run time. A name that Gemini would refuse
 * (starting with a digit or `-`) is declared with a leading `_`, and mapped back when called.
 * Resolver-bound params are in no schema and no description.
 *
 * @example
 * ```ts
 * import { createGeminiTools } from 'rcp-gemini';
 *
 * const rcp = createGeminiTools(client, await client.discover(manifestUrl));
 * const response = await ai.models.generateContent({ model, contents, config: { tools: [{ functionDeclarations: rcp.functionDeclarations }] } });
 * const parts = await rcp.runFunctionCalls(response.functionCalls, { userId: 'u-1' });
 * ```
 */
export function createGeminiTools<Context = any>(
  client: RcpClient<Context>,
  source: RcpDiscovery | readonly RcpDiscovery[] | RcpToolSet,
  options: GeminiToolsOptions = {},
): GeminiTools<Context> {
  const { form = 'parametersJsonSchema', ...setOptions } = options;
  const toolSet = createToolSet(source, setOptions);
  const byGeminiName = new Map(toolSet.names.map((name) => [geminiName(name), name]));
  const warnings: string[] = [...toolSet.warnings];
  // The model's check of pending operations (SPEC §20.8), beside long-running tools only, and
  // never in place of a discovered tool of that name (rcp-client's one rule).
  const { offer: offersCheck, warning: checkWarning } = checkOperationOffer(toolSet.entries);
  const offered = [...toolSet.entries, ...(offersCheck ? [{ name: CHECK_OPERATION_TOOL.name, tool: CHECK_OPERATION_TOOL }] : [])];
  const declarations = offered.map(({ name, tool }): GeminiFunctionDeclaration => {
    const declaration: GeminiFunctionDeclaration = { name: geminiName(name), description: tool.description };
    if (form === 'parameters') {
      const converted = toGeminiParameters(tool.inputSchema);
      if (converted.parameters !== undefined) declaration.parameters = converted.parameters;
      for (const warning of converted.warnings) warnings.push(`Tool "${name}": ${warning}`);
    } else {
      declaration.parametersJsonSchema = jsonSchemaCopy(tool.inputSchema);
    }
    return declaration;
  });
  if (checkWarning !== undefined) warnings.push(checkWarning);
  // The client with the context as one typed argument (for the check): assigned once, never cast.
  const calls: RcpContextClient<Context> = client;
  type Rest = RcpContextArgs<Context, [options?: RcpExecuteOptions]>;
  /** One function call through `client.call`, or the check through `checkOperation` (`rest[0]` is the run's ctx). */
  async function answer(name: string, args: unknown, rest: Rest): Promise<ModelResult> {
    if (offersCheck && name === CHECK_OPERATION_TOOL.name) return checkOperation(calls, toolSet, args, rest[0] as Context);
    return toModelResult(await client.call(toolSet, { name, arguments: args }, ...rest));
  }
  return Object.freeze({
    get functionDeclarations(): GeminiFunctionDeclaration[] {
      return structuredClone(declarations);
    },
    toolSet,
    warnings: Object.freeze(warnings),
    async runFunctionCalls(calls: readonly GeminiFunctionCall[] | undefined, ...rest: Rest) {
      return Promise.all(
        (calls ?? []).map(async (call): Promise<GeminiFunctionResponsePart> => {
          const asked = typeof call.name === 'string' ? call.name : '';
          const functionResponse = toFunctionResponse(asked, await answer(byGeminiName.get(asked) ?? asked, call.args, rest));
          return { functionResponse: call.id === undefined ? functionResponse : { id: call.id, ...functionResponse } };
        }),
      );
    },
  });
}
