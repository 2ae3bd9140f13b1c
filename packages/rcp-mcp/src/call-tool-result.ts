/**
 * A model result as an MCP `tools/call` result (docs/behaviour.md, the gateway): what the model reads is
 * `toModelText`'s text (data, page, truncation, retry hint, marking; media bytes left out), a
 * media part rides beside it in MCP's native shape, and an object's data is also
 * `structuredContent`.
 */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';
import { toModelText, type ModelMedia, type ModelResult } from 'rcp-client';
import { isRecord } from 'rcp-internal';

/**
 * A media part as MCP content: `image` for `image/*`, `audio` for `audio/*`, else an embedded
 * `resource` with a `blob` (a PDF, a spreadsheet, an archive). The base64 is the client's, sent
 * as is (never encoded again). The resource's URI names the tool only (`rcp-media:<tool>`): the
 * request's URL may hold a resolver's value.
 */
function mediaContent(media: ModelMedia, tool: string): ContentBlock {
  const { mediaType: mimeType, data } = media;
  if (mimeType.startsWith('image/')) return { type: 'image', data, mimeType };
  if (mimeType.startsWith('audio/')) return { type: 'audio', data, mimeType };
  return { type: 'resource', resource: { uri: `rcp-media:${tool}`, mimeType, blob: data } };
}

/**
 * The MCP result of a tool call: `toModelText`'s text first — `isError: true` when the call
 * failed — then `hint` as a second text when given (a pending result's sentence about
 * `check_operation`), then the media part when there is one; `structuredContent` is the data
 * when it is a JSON object (never an array, a scalar or `null`: the text alone carries those).
 */
export function toCallToolResult(result: ModelResult, tool: string, hint?: string): CallToolResult {
  const text: ContentBlock = { type: 'text', text: toModelText(result) };
  if (!result.ok) return { isError: true, content: [text] };
  const content: ContentBlock[] = [text];
  if (hint !== undefined) content.push({ type: 'text', text: hint });
  if (result.media !== undefined) content.push(mediaContent(result.media, tool));
  return isRecord(result.data) ? { content, structuredContent: result.data } : { content };
}
