import type { JSONSchema7, Tool } from 'ai';
import { ANTHROPIC_MEDIA_TYPES } from 'rcp-anthropic';
import { jsonSchemaCopy, toModelText, type ModelResult, type RcpClientTool } from 'rcp-client';
import { GEMINI_MEDIA_TYPES } from 'rcp-gemini';
import { OPENAI_MEDIA_TYPES } from 'rcp-openai';

/**
 * The media types the AI SDK adapter sends as media unless it is told its provider's: the ones
 * every provider of docs/behaviour.md's table takes in a tool result — in OpenAI's, Anthropic's and
 * Gemini's lists alike (PNG, JPEG, WebP, PDF). *Why:* the adapter cannot know its provider.
 * `toModelOutput` is given the call's id, input and output, never the model; the model is passed
 * to `generateText` after the tools are made, and one tool set may serve several models. A type a
 * provider does not take fails the whole request there (each AI SDK provider sends what it is
 * given), so a type outside the list is the text alone, which says what was received and how big.
 *
 * @example
 * ```ts
 * import { OPENAI_MEDIA_TYPES } from 'rcp-openai';
 * import { AI_SDK_MEDIA_TYPES, createAISDKTools } from 'rcp-ai-sdk';
 *
 * AI_SDK_MEDIA_TYPES; // ['image/png', 'image/jpeg', 'image/webp', 'application/pdf']
 * createAISDKTools(client, discovery, { mediaTypes: OPENAI_MEDIA_TYPES }); // GIF too, for an OpenAI model only
 * ```
 */
export const AI_SDK_MEDIA_TYPES: readonly string[] = Object.freeze(
  OPENAI_MEDIA_TYPES.filter((type) => (ANTHROPIC_MEDIA_TYPES as readonly string[]).includes(type) && GEMINI_MEDIA_TYPES.includes(type)),
);

/**
 * What the AI SDK sends a provider for a tool's result (`ToolResultOutput` of
 * `@ai-sdk/provider-utils`, which `ai` 6 does not re-export by name).
 *
 * @example
 * ```ts
 * const output: AISDKToolResultOutput = { type: 'text', value: '{"ok":true,"data":{"id":"r-1"}}' };
 * ```
 */
export type AISDKToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * A tool result as the AI SDK hands it to the model (docs/behaviour.md): a result with a media part of
 * one of `mediaTypes` (default {@link AI_SDK_MEDIA_TYPES}) is `{ type: 'content' }` —
 * `toModelText`'s text (what was received, its type and size, no bytes) and the bytes as they
 * came, once, as an `image-data` part for an `image/*` type and a `file-data` part for any other —
 * which each provider sends in its native shape (OpenAI Responses: `input_image` / `input_file`;
 * Anthropic: image / document blocks). Media of another type, and any other successful result, is
 * `{ type: 'text', value: toModelText(result) }`, a failed one
 * `{ type: 'error-text', ... }` (the same text; a provider that marks failed tool results,
 * Anthropic's `is_error`, marks it). `toModelText` applies the untrusted-text marking
 * (`markUntrustedText`) to both.
 *
 * @example
 * ```ts
 * import { toModelResult } from 'rcp-client';
 * import { toAISDKModelOutput } from 'rcp-ai-sdk';
 *
 * const output = toAISDKModelOutput(toModelResult(await client.call(discovery, call, ctx)));
 * // { type: 'content', value: [{ type: 'text', text: '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":68}}' }, { type: 'image-data', data: 'iVBORw0KGgo...', mediaType: 'image/png' }] }
 * ```
 */
export function toAISDKModelOutput(result: ModelResult, options: { readonly mediaTypes?: readonly string[] } = {}): AISDKToolResultOutput {
  const text = toModelText(result);
  if (!result.ok) return { type: 'error-text', value: text };
  const { media } = result;
  if (media === undefined || !(options.mediaTypes ?? AI_SDK_MEDIA_TYPES).includes(media.mediaType)) return { type: 'text', value: text };
  const { mediaType, data } = media;
  const part = mediaType.startsWith('image/') ? { type: 'image-data' as const, data, mediaType } : { type: 'file-data' as const, data, mediaType };
  return { type: 'content', value: [{ type: 'text', text }, part] };
}

/**
 * The JSON Schema of what a tool's `execute` returns — `toModelResult`'s object — for a tool
 * with an output schema (`tool.outputSchema`, from `responseMappings`): a success's `data` is
 * that schema; a failure is `{ ok: false, error: { code, message } }`. The AI SDK checks a
 * stored tool output against it (`validateUIMessages`). `undefined` for a tool without one.
 *
 * @example
 * ```ts
 * const schema = modelResultSchema(discovery.tools.find((tool) => tool.name === 'get_record')!);
 * // { anyOf: [{ type: 'object', properties: { ok: { const: true }, data: { type: 'object', ... } }, required: ['ok', 'data'] }, { ... ok: { const: false } ... }] }
 * ```
 */
export function modelResultSchema(tool: Pick<RcpClientTool, 'outputSchema'>): JSONSchema7 | undefined {
  if (tool.outputSchema === undefined) return undefined;
  return {
    anyOf: [
      { type: 'object', properties: { ok: { const: true }, data: jsonSchemaCopy(tool.outputSchema) }, required: ['ok', 'data'] },
      {
        type: 'object',
        properties: {
          ok: { const: false },
          error: {
            type: 'object',
            properties: { code: { type: 'string' }, message: { type: 'string' }, retryAfterSeconds: { type: 'integer', minimum: 0 } },
            required: ['code', 'message'],
          },
        },
        required: ['ok', 'error'],
      },
    ],
  };
}
