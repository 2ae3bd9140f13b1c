/**
 * The media types OpenAI's Responses API takes in a function call's output (docs/behaviour.md): PNG,
 * JPEG, WebP and non-animated GIF as an `input_image`, PDF as an `input_file`. A type outside
 * the list fails the whole request, so it is never sent as media; the text says what was
 * received and how big. Every adapter that sends tool results to OpenAI uses this one list
 * (`rcp-openai`, `rcp-openai-agents`).
 *
 * @example
 * ```ts
 * import { OPENAI_MEDIA_TYPES } from 'rcp-openai';
 * OPENAI_MEDIA_TYPES.includes('image/bmp'); // false
 * ```
 */
export const OPENAI_MEDIA_TYPES: readonly string[] = Object.freeze(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf']);

/**
 * How OpenAI takes a media type in a tool's output: `'image'` (`input_image`), `'file'`
 * (`input_file`), or `undefined` when it is not one of {@link OPENAI_MEDIA_TYPES} and must be
 * the text alone. `mediaType` is a model result's: lower-case, without parameters.
 *
 * @example
 * ```ts
 * import { openAIMediaKind } from 'rcp-openai';
 * openAIMediaKind('image/png');       // 'image'
 * openAIMediaKind('application/pdf'); // 'file'
 * openAIMediaKind('audio/wav');       // undefined
 * ```
 */
export function openAIMediaKind(mediaType: string): 'image' | 'file' | undefined {
  if (!OPENAI_MEDIA_TYPES.includes(mediaType)) return undefined;
  return mediaType.startsWith('image/') ? 'image' : 'file';
}
