import { createAgent, type AgentMiddleware } from 'langchain';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { expectTypeOf, test } from 'vitest';
import type { RcpClient, RcpToolSet } from 'rcp-client';
import type { RcpToolSearch } from 'rcp-search';
import { createLangChainToolSelector, type LangChainToolFinder } from './index';

declare const client: RcpClient<{ userId: string }>;
declare const search: RcpToolSearch;
declare const stage: RcpToolSet;

test("rcp-search's search is a finder, and the middleware is what createAgent takes", () => {
  expectTypeOf(search).toExtend<LangChainToolFinder>();
  const selector = createLangChainToolSelector(client, search, { limit: 3, stage });
  expectTypeOf(selector.tools).toEqualTypeOf<StructuredToolInterface[]>();
  expectTypeOf(selector.middleware).toExtend<AgentMiddleware>();
  createAgent({ model: 'openai:gpt-4.1', tools: selector.tools, middleware: [selector.middleware] });
});

test('the options: a misspelled key and a set option the finder already fixed are refused', () => {
  // @ts-expect-error: the option is limit
  createLangChainToolSelector(client, search, { limits: 3 });
  // @ts-expect-error: the searched tool set is the finder's
  createLangChainToolSelector(client, search, { only: ['get_note'] });
  createLangChainToolSelector(client, search, { context: (configurable) => ({ userId: String(configurable.user_id) }) });
});
