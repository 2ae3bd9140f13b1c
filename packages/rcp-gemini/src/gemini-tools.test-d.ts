import type { FunctionCall, FunctionDeclaration, GenerateContentResponse, Part } from '@google/genai';
import { expectTypeOf, test } from 'vitest';
import { GEMINI_MEDIA_TYPES, type GeminiTools } from './index';

declare const rcp: GeminiTools<{ userId: string }>;
declare const response: GenerateContentResponse;

test('the declarations, calls and answers are what @google/genai takes and gives, with no casts', async () => {
  // Both forms: `parameters` is a plain record, since the SDK's Schema.type is an enum no literal matches.
  expectTypeOf(rcp.functionDeclarations).toMatchTypeOf<FunctionDeclaration[]>();
  expectTypeOf<FunctionCall[] | undefined>().toMatchTypeOf<Parameters<typeof rcp.runFunctionCalls>[0]>();
  const parts = await rcp.runFunctionCalls(response.functionCalls, { userId: 'u-1' });
  expectTypeOf(parts).toMatchTypeOf<Part[]>();
  // @ts-expect-error the context is required when the client's resolvers read one
  await rcp.runFunctionCalls(response.functionCalls);
});

test('the media list is read-only', () => {
  expectTypeOf(GEMINI_MEDIA_TYPES).toEqualTypeOf<readonly string[]>();
});
