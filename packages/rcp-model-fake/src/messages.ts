import { type AnswerWriter, modelOf, type SseEvent, STREAM_PIECE } from './answer';
import { argumentsText, pieces } from './script';
import type { ScriptedToolCall } from './types';

/** A tool call's `input` object; a string that is not the JSON text of an object cannot be one. */
function inputOf(call: ScriptedToolCall): Record<string, unknown> {
  if (typeof call.arguments !== 'string') return { ...call.arguments };
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.arguments);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(
      `rcp-model-fake: the arguments of tool call "${call.name}" are not a JSON object, which a Messages tool_use input must be (only a streamed answer can carry them)`,
    );
  }
  return parsed as Record<string, unknown>;
}

/** A turn as an Anthropic Message (a `text` block, then one `tool_use` block per call), or as its stream events. */
export const writeMessage: AnswerWriter = (turn, request, nextId) => {
  const calls = (turn.toolCalls ?? []).map((call) => ({ call, id: call.id ?? nextId('toolu_') }));
  const stopReason = calls.length > 0 ? 'tool_use' : 'end_turn';
  const message = {
    id: nextId('msg_'),
    type: 'message',
    role: 'assistant',
    model: modelOf(request),
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
  if (!request.stream) {
    const content: Record<string, unknown>[] = [];
    if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
    for (const { call, id } of calls) content.push({ type: 'tool_use', id, name: call.name, input: inputOf(call) });
    return { json: { ...message, content } };
  }
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => events.push({ event: type, data: { type, ...fields } });
  emit('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
  let index = 0;
  if (turn.text !== undefined) {
    emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const text of pieces(turn.text, STREAM_PIECE)) emit('content_block_delta', { index, delta: { type: 'text_delta', text } });
    emit('content_block_stop', { index });
    index++;
  }
  for (const { call, id } of calls) {
    emit('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    for (const partial of pieces(argumentsText(call), STREAM_PIECE))
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
    emit('content_block_stop', { index });
    index++;
  }
  emit('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  emit('message_stop', {});
  return { events };
};
