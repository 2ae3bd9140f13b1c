import { type AnswerWriter, modelOf, type SseEvent, STREAM_PIECE } from './answer';
import { argumentsText, pieces } from './script';

const USAGE = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 5,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 15,
};

/** A turn as an OpenAI Response (a `message` item, then one `function_call` item per call), or as its stream events. */
export const writeResponse: AnswerWriter = (turn, request, nextId) => {
  const items: Record<string, unknown>[] = [];
  if (turn.text !== undefined) {
    items.push({
      id: nextId('msg_'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
    });
  }
  for (const call of turn.toolCalls ?? []) {
    items.push({
      id: nextId('fc_'),
      type: 'function_call',
      status: 'completed',
      call_id: call.id ?? nextId('call_'),
      name: call.name,
      arguments: argumentsText(call),
    });
  }
  const response = {
    id: nextId('resp_'),
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: modelOf(request),
    output: items,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: Array.isArray(request.body.tools) ? request.body.tools : [],
    temperature: null,
    top_p: null,
    metadata: {},
    text: { format: { type: 'text' } },
    usage: USAGE,
  };
  if (!request.stream) return { json: response };

  let sequence = 0;
  const events: SseEvent[] = [];
  const emit = (type: string, fields: Record<string, unknown>) => events.push({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  emit('response.created', { response: inProgress });
  emit('response.in_progress', { response: inProgress });
  items.forEach((item, outputIndex) => {
    const itemId = item.id;
    if (item.type === 'message') {
      const [part] = item.content as [{ text: string }];
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      const empty = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      emit('response.content_part.added', { item_id: itemId, output_index: outputIndex, content_index: 0, part: empty });
      for (const delta of pieces(part.text, STREAM_PIECE)) {
        emit('response.output_text.delta', { item_id: itemId, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      }
      emit('response.output_text.done', { item_id: itemId, output_index: outputIndex, content_index: 0, text: part.text, logprobs: [] });
      emit('response.content_part.done', { item_id: itemId, output_index: outputIndex, content_index: 0, part });
    } else {
      const text = item.arguments as string;
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(text, STREAM_PIECE)) emit('response.function_call_arguments.delta', { item_id: itemId, output_index: outputIndex, delta });
      emit('response.function_call_arguments.done', { item_id: itemId, output_index: outputIndex, name: item.name, arguments: text });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  emit('response.completed', { response });
  return { events };
};
