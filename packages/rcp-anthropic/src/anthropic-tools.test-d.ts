import type Anthropic from '@anthropic-ai/sdk';
import { expectTypeOf, test } from 'vitest';
import { ANTHROPIC_MEDIA_TYPES, type AnthropicImageMediaType, type AnthropicTools } from './index';
import type { AnthropicToolSearch } from './search';

declare const rcp: AnthropicTools<{ userId: string }>;
declare const message: Anthropic.Message;

test('the tools and results are what the Anthropic SDK takes, with no casts', async () => {
  expectTypeOf(rcp.tools).toMatchTypeOf<Anthropic.Tool[]>();
  const results = await rcp.runToolUses(message.content, { userId: 'u-1' });
  expectTypeOf(results).toMatchTypeOf<Anthropic.ToolResultBlockParam[]>();
  // @ts-expect-error the context is required when the client's resolvers read one
  await rcp.runToolUses(message.content);
});

declare const searching: AnthropicToolSearch<{ userId: string }>;

test('the deferred tools and the search answers are what the Anthropic SDK takes, with no casts', async () => {
  expectTypeOf(searching.tools).toMatchTypeOf<Anthropic.Tool[]>();
  const results = await searching.runToolUses(message.content, { userId: 'u-1' });
  expectTypeOf(results).toMatchTypeOf<Anthropic.ToolResultBlockParam[]>();
});

test("the media list holds the image block's types and PDF", () => {
  expectTypeOf(ANTHROPIC_MEDIA_TYPES).toEqualTypeOf<readonly (AnthropicImageMediaType | 'application/pdf')[]>();
});
