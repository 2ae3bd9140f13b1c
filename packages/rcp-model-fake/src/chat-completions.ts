import { type AnswerWriter, modelOf, type SseEvent, STREAM_PIECE } from './answer';
import { argumentsText, pieces } from './script';

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** A turn as an OpenAI Chat Completion, or as its `chat.completion.chunk` events ending with `[DONE]`. */
export const writeChatCompletion: AnswerWriter = (turn, request, nextId) => {
  const id = nextId('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const model = modelOf(request);
  const calls = (turn.toolCalls ?? []).map((call) => ({ id: call.id ?? nextId('call_'), name: call.name, arguments: argumentsText(call) }));
  const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';
  if (!request.stream) {
    return {
      json: {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: turn.text ?? null,
              refusal: null,
              ...(calls.length > 0
                ? { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
                : {}),
            },
            logprobs: null,
            finish_reason: finishReason,
          },
        ],
        usage: USAGE,
      },
    };
  }
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] },
  });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (turn.text !== undefined) for (const piece of pieces(turn.text, STREAM_PIECE)) events.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of pieces(call.arguments, STREAM_PIECE)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finishReason));
  const options = request.body.stream_options;
  if (typeof options === 'object' && options !== null && (options as { include_usage?: unknown }).include_usage === true) {
    events.push({ data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE } });
  }
  events.push({ data: '[DONE]' });
  return { events };
};
