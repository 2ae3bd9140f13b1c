/**
 * What a `ToolMessage` carries of a tool's result for the model, in `@langchain/core` 1.x's
 * standard content blocks: the text of `toModelText` (media bytes left out, the untrusted
 * marking applied), and for a binary answer one multimodal block beside it with the bytes as
 * they came from `toModelResult` (base64, never encoded again).
 */
import type { ContentBlock } from '@langchain/core/messages';
import { toModelText, type ModelMedia, type ModelResult } from 'rcp-client';

/**
 * The standard block of a media part: `image`, `audio` and `video` by the type's top level, a
 * `file` for every other type (a PDF, a spreadsheet, `application/octet-stream`).
 */
function mediaBlock({ mediaType, data }: ModelMedia): ContentBlock.Multimodal.Standard {
  const topLevel = mediaType.slice(0, mediaType.indexOf('/'));
  if (topLevel === 'image' || topLevel === 'audio' || topLevel === 'video') return { type: topLevel, mimeType: mediaType, data };
  return { type: 'file', mimeType: mediaType, data };
}

/**
 * A `ToolMessage`'s `content` for a model result: `toModelText`'s text, or — when the result
 * has a media part — a text block with that text and the media's standard block
 * (`{ type: 'image' | 'audio' | 'video' | 'file', mimeType, data }`, `data` base64).
 *
 * @example
 * ```ts
 * toolContent(toModelResult(outcome));
 * // '{"ok":true,"data":{...}}', or for a PNG:
 * // [{ type: 'text', text: '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":70}}' },
 * //  { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo...' }]
 * ```
 */
export function toolContent(result: ModelResult): string | ContentBlock.Standard[] {
  const text = toModelText(result);
  if (!result.ok || result.media === undefined) return text;
  return [{ type: 'text', text }, mediaBlock(result.media)];
}
