import { createAgent } from 'langchain';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { expectTypeOf, test } from 'vitest';
import type { RcpClient, RcpDiscovery, RcpToolSet } from 'rcp-client';
import { createLangChainTools, type LangChainToolProgress, type LangChainToolsOptions } from './index';

type Ctx = { userId: string };
declare const client: RcpClient<Ctx>;
declare const discovery: RcpDiscovery;
declare const toolSet: RcpToolSet;

test('the tools are what createAgent takes', () => {
  const tools = createLangChainTools(client, discovery);
  expectTypeOf(tools).toEqualTypeOf<StructuredToolInterface[]>();
  createAgent({ model: 'openai:gpt-4.1', tools });
  createLangChainTools(client, [discovery, discovery]);
  createLangChainTools(client, toolSet);
});

test("context maps the run's configurable to the client's context type", () => {
  createLangChainTools(client, discovery, {
    context: (configurable) => {
      expectTypeOf(configurable).toEqualTypeOf<Record<string, unknown>>();
      return { userId: String(configurable.user_id) };
    },
  });
  // @ts-expect-error the context has the client's shape ({ userId: string })
  createLangChainTools(client, discovery, { context: () => ({ user: 'u-1' }) });
  expectTypeOf<LangChainToolsOptions<Ctx>['context']>().toEqualTypeOf<((configurable: Record<string, unknown>) => Ctx) | undefined>();
});

test("options: a stage is a tool set; only / namespace are the tool set's; a misspelled key is refused", () => {
  createLangChainTools(client, discovery, { stage: toolSet.select(['get_note'], { stage: 'browse' }), only: ['get_note'], namespace: () => 'notes' });
  // @ts-expect-error a stage is a tool set (toolSet.select), not a list of names
  createLangChainTools(client, discovery, { stage: ['get_note'] });
  // @ts-expect-error the option is context
  createLangChainTools(client, discovery, { ctx: { userId: 'u-1' } });
});

test("a streamed tool's custom-stream event: a literal type, counts, the tool and its call's id", () => {
  expectTypeOf<LangChainToolProgress>().toEqualTypeOf<{
    readonly type: 'rcp_progress';
    readonly tool: string;
    readonly toolCallId?: string;
    readonly events: number;
    readonly bytes: number;
  }>();
});
