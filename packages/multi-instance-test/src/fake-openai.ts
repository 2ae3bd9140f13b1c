/**
 * A loopback fake of the OpenAI Responses API that the chat route's own `openai(...)` provider
 * talks to (`OPENAI_BASE_URL`): a scripted model. A request whose last input item is the user's
 * message answers with the one tool call that message spells (`{"call", "tool", "arguments"}` as
 * JSON); any other request (the history holds the tool's result) answers with text.
 */
import { sendJson, startTestServer, type TestServer } from 'rcp-test-utils';

/** What a user message asks the scripted model to call. */
export interface ScriptedCall {
  /** The tool call id (also the approval ledger key of a paused call: unique per test). */
  readonly call: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

/** One item of a Responses API request's `input`. */
type InputItem = { type?: string; role?: string; content?: string | { type: string; text?: string }[] };

const usage = {
  input_tokens: 1,
  output_tokens: 1,
  total_tokens: 2,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

function textOf(item: InputItem): string {
  if (typeof item.content === 'string') return item.content;
  return (item.content ?? []).map((part) => part.text ?? '').join('');
}

/**
 * Starts the fake; its `url('/v1')` is the `OPENAI_BASE_URL` to give the route.
 *
 * @example
 * ```ts
 * const model = await startScriptedModel();
 * const env = { OPENAI_BASE_URL: model.url('/v1'), OPENAI_API_KEY: 'sk-test' };
 * ```
 */
export async function startScriptedModel(): Promise<TestServer> {
  const fake = await startTestServer();
  fake.route('POST /v1/responses', (request, res) => {
    const input = (request.json as { input: InputItem[] }).input;
    const last = input.at(-1);
    const id = `${fake.count}`;
    if (last?.role === 'user') {
      const asked = JSON.parse(textOf(last)) as ScriptedCall;
      const call = {
        type: 'function_call',
        id: `fc_${asked.call}`,
        call_id: asked.call,
        name: asked.tool,
        arguments: JSON.stringify(asked.arguments),
        status: 'completed',
      };
      sendJson(res, 200, { id: `resp_${id}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-5-mini', output: [call], usage });
      return;
    }
    const text = {
      type: 'message',
      id: `msg_${id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
    };
    sendJson(res, 200, { id: `resp_${id}`, object: 'response', created_at: 0, status: 'completed', model: 'gpt-5-mini', output: [text], usage });
  });
  return fake;
}
