import { expectTypeOf, test } from 'vitest';
import type { ModelResult, RcpClient, RcpDiscovery } from 'rcp-client';
import { OPENAI_MEDIA_TYPES } from 'rcp-openai';
import { AI_SDK_MEDIA_TYPES, createAISDKTools, toAISDKModelOutput, type AISDKToolsOptions } from './index';

declare const client: RcpClient;
declare const discovery: RcpDiscovery;
declare const result: ModelResult;

test('mediaTypes takes a provider list of media types; the default is exported', () => {
  expectTypeOf<AISDKToolsOptions<unknown>['mediaTypes']>().toEqualTypeOf<readonly string[] | undefined>();
  expectTypeOf(AI_SDK_MEDIA_TYPES).toEqualTypeOf<readonly string[]>();
  createAISDKTools(client, discovery, { mediaTypes: OPENAI_MEDIA_TYPES });
  toAISDKModelOutput(result, { mediaTypes: ['image/png'] });
  // @ts-expect-error a list, not one type
  createAISDKTools(client, discovery, { mediaTypes: 'image/png' });
});
