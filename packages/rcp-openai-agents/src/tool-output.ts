import type { ToolOutputFileContent, ToolOutputImage, ToolOutputText } from '@openai/agents';
import { toModelText, type ModelResult } from 'rcp-client';
import { openAIMediaKind } from 'rcp-openai';

/**
 * What one of these tools returns to the Agents SDK: `toModelText`'s text, or — for an answer
 * of a media type OpenAI takes (`OPENAI_MEDIA_TYPES` of rcp-openai) — that text and the bytes as
 * a `ToolOutputImage` (PNG, JPEG, WebP, GIF) or a `ToolOutputFileContent` (PDF), which the SDK
 * sends the Responses API as `input_text` and `input_image` / `input_file`.
 *
 * @example
 * ```ts
 * const output: OpenAIAgentsToolOutput = '{"ok":true,"data":{"id":"r-1"}}';
 * ```
 */
export type OpenAIAgentsToolOutput = string | [ToolOutputText, ToolOutputImage | ToolOutputFileContent];

/** The file name a document is sent under (the Responses API asks for one): the tool's name and the subtype. */
function filenameOf(toolName: string, mediaType: string): string {
  const subtype = mediaType.slice(mediaType.indexOf('/') + 1).replace(/[^a-z0-9.+-]/gi, '');
  return subtype === '' ? toolName : `${toolName}.${subtype}`;
}

/**
 * A tool result as the Agents SDK hands it to the model (docs/behaviour.md): `toModelText(result)` for
 * a result without media (the untrusted-text marking applied when the client sets it); for an
 * answer of a type OpenAI takes as media (rcp-openai's `OPENAI_MEDIA_TYPES`, the list the
 * Responses adapter uses), that text (what was received, its type and size, no bytes) followed
 * by the bytes once, as `{ type: 'image', image: { data, mediaType } }` for an image or
 * `{ type: 'file', file: { data, mediaType, filename } }` for a PDF (`filename` is the tool's
 * name and the media subtype, such as `get_report.pdf`). Any other type (`image/bmp`,
 * `audio/wav`, `application/octet-stream` …) would fail the whole request: the text alone.
 *
 * @example
 * ```ts
 * import { toModelResult } from 'rcp-client';
 * import { toAgentsToolOutput } from 'rcp-openai-agents';
 *
 * const output = toAgentsToolOutput(toModelResult(await client.call(discovery, call, ctx)), 'get_chart');
 * // [{ type: 'text', text: '{"ok":true,"data":null,"media":{"mediaType":"image/png","size":68}}' }, { type: 'image', image: { data: 'iVBORw0KGgo...', mediaType: 'image/png' } }]
 * ```
 */
export function toAgentsToolOutput(result: ModelResult, toolName: string): OpenAIAgentsToolOutput {
  const text = toModelText(result);
  if (!result.ok || result.media === undefined) return text;
  const { mediaType, data } = result.media;
  const kind = openAIMediaKind(mediaType);
  if (kind === undefined) return text;
  const media: ToolOutputImage | ToolOutputFileContent =
    kind === 'image' ? { type: 'image', image: { data, mediaType } } : { type: 'file', file: { data, mediaType, filename: filenameOf(toolName, mediaType) } };
  return [{ type: 'text', text }, media];
}
