import type { ModelApi, ModelRequest, ToolResultSeen } from './types';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);

/** The text of a tool result: the string, or the `text` of its parts joined. */
function textOf(output: unknown): string {
  if (typeof output === 'string') return output;
  return records(output)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

function toolNamesOf(api: ModelApi, body: Record<string, unknown>): string[] {
  return records(body.tools).flatMap((tool) => {
    const name = api === 'chat.completions' && isRecord(tool.function) ? tool.function.name : tool.name;
    return typeof name === 'string' ? [name] : [];
  });
}

function toolResultsOf(api: ModelApi, body: Record<string, unknown>): ToolResultSeen[] {
  if (api === 'chat.completions') {
    return records(body.messages)
      .filter((message) => message.role === 'tool')
      .map((message) => ({ callId: stringOr(message.tool_call_id, ''), output: message.content, text: textOf(message.content), isError: false }));
  }
  if (api === 'responses') {
    return records(body.input)
      .filter((item) => item.type === 'function_call_output')
      .map((item) => ({ callId: stringOr(item.call_id, ''), output: item.output, text: textOf(item.output), isError: false }));
  }
  return records(body.messages)
    .flatMap((message) => records(message.content))
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ callId: stringOr(block.tool_use_id, ''), output: block.content, text: textOf(block.content), isError: block.is_error === true }));
}

/** A request as the fake records it. */
export function readModelRequest(
  api: ModelApi,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: Record<string, unknown>,
): ModelRequest {
  return {
    api,
    path,
    stream: body.stream === true,
    headers,
    body,
    toolNames: toolNamesOf(api, body),
    toolResults: toolResultsOf(api, body),
  };
}
