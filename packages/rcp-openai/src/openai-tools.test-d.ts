import type OpenAI from 'openai';
import { expectTypeOf, test } from 'vitest';
import { OPENAI_MEDIA_TYPES, openAIMediaKind, type OpenAITools } from './index';
import type { OpenAIToolSearch } from './search';

declare const rcp: OpenAITools<{ userId: string }>;
declare const message: OpenAI.Chat.Completions.ChatCompletionMessage;
declare const response: OpenAI.Responses.Response;

test('the tools and answers are what the openai SDK takes, with no casts', async () => {
  expectTypeOf(rcp.chatTools).toMatchTypeOf<OpenAI.Chat.Completions.ChatCompletionTool[]>();
  expectTypeOf(rcp.responsesTools).toMatchTypeOf<OpenAI.Responses.Tool[]>();
  // RCP 0.4 groups as namespaces: openai 6.49's NamespaceTool, in the same tools list.
  expectTypeOf(rcp.responsesNamespacedTools).toMatchTypeOf<OpenAI.Responses.Tool[]>();
  const toolMessages = await rcp.runToolCalls(message.tool_calls, { userId: 'u-1' });
  expectTypeOf(toolMessages).toMatchTypeOf<OpenAI.Chat.Completions.ChatCompletionMessageParam[]>();
  const outputs = await rcp.runFunctionCalls(response.output, { userId: 'u-1' });
  expectTypeOf(outputs).toMatchTypeOf<OpenAI.Responses.ResponseInputItem[]>();
  // @ts-expect-error the context is required when the client's resolvers read one
  await rcp.runToolCalls(message.tool_calls);
});

declare const searching: OpenAIToolSearch<{ userId: string }>;

test('the tool search tool and its answers are what the openai SDK takes, with no casts', async () => {
  expectTypeOf(searching.responsesTools).toMatchTypeOf<OpenAI.Responses.Tool[]>();
  const items = await searching.runOutput(response.output, { userId: 'u-1' });
  expectTypeOf(items).toMatchTypeOf<OpenAI.Responses.ResponseInputItem[]>();
});

test('the media list is read-only and a media kind is image, file or not media', () => {
  expectTypeOf(OPENAI_MEDIA_TYPES).toEqualTypeOf<readonly string[]>();
  expectTypeOf(openAIMediaKind('image/png')).toEqualTypeOf<'image' | 'file' | undefined>();
});
