import type { JSONSchema7, Tool } from 'ai';
import { jsonSchemaCopy, toModelText, type ModelResult, type RcpClientTool } from 'rcp-client';

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
 * A tool result as the AI SDK hands it to the model (SPEC §18.1): a result with a media part is
 * `{ type: 'content' }` — `toModelText`'s text (what was received, its type and size, no bytes)
 * and the bytes as they came, once, as an `image-data` part for an `image/*` type and a
 * `file-data` part for any other — which each provider sends in its native shape (OpenAI
 * Responses: `input_image` / `input_file`; Anthropic: image / document blocks). Any other
 * successful result is `{ type: 'text', value: toModelText(result) }`, a failed one
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
export function toAISDKModelOutput(result: ModelResult): AISDKToolResultOutput {
  const text = toModelText(result);
  if (!result.ok) return { type: 'error-text', value: text };
  const { media } = result;
  if (media === undefined) return { type: 'text', value: text };
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
