import { expectTypeOf, test } from 'vitest';
import type { RcpClientTool, RcpInputSchema, RcpToolSet } from 'rcp-client';
import {
  MAX_QUERY_LENGTH,
  MAX_QUERY_WORDS,
  createToolSearch,
  describeToolHits,
  toolSearchDefinition,
  type RcpToolRanker,
  type RcpToolSearchHit,
  type RcpToolSearchOptions,
} from './index';

declare const toolSet: RcpToolSet;

test('a search gives frozen hits of the set: name, score and the tool', () => {
  const search = createToolSearch(toolSet);
  expectTypeOf(search.search('refund')).resolves.toEqualTypeOf<readonly RcpToolSearchHit[]>();
  expectTypeOf<RcpToolSearchHit['tool']>().toEqualTypeOf<RcpClientTool>();
  expectTypeOf(search.toolSet).toEqualTypeOf<RcpToolSet>();
});

test('options are checked by name: a misspelled key or field is a type error', () => {
  createToolSearch(toolSet, { boost: { params: 0 }, synonyms: false, stemming: true, prefix: false, candidates: 20, commonWords: 1, methodAware: false });
  expectTypeOf<RcpToolSearchOptions['methodAware']>().toEqualTypeOf<boolean | undefined>();
  expectTypeOf<RcpToolSearchOptions['commonWords']>().toEqualTypeOf<number | undefined>();
  // @ts-expect-error: `boosts` is not an option
  createToolSearch(toolSet, { boosts: { params: 0 } });
  // @ts-expect-error: `title` is not a searched field
  createToolSearch(toolSet, { boost: { title: 2 } });
  expectTypeOf<RcpToolSearchOptions['synonyms']>().toEqualTypeOf<readonly (readonly string[])[] | false | undefined>();
});

test('a ranker returns names, sync or async', () => {
  const sync: RcpToolRanker = (_query, candidates) => candidates.map((hit) => hit.name);
  const async: RcpToolRanker = async () => ['createRefund'];
  createToolSearch(toolSet, { rank: sync });
  createToolSearch(toolSet, { rank: async });
  // @ts-expect-error: a ranker returns names, not hits
  const wrong: RcpToolRanker = (_query, candidates) => candidates;
  void wrong;
});

test('what the model reads: compact param names, or the model-facing schema with inputSchemas', () => {
  expectTypeOf<ReturnType<typeof describeToolHits>['tools'][number]['params']>().toEqualTypeOf<readonly string[] | undefined>();
  expectTypeOf<ReturnType<typeof describeToolHits>['tools'][number]['inputSchema']>().toEqualTypeOf<RcpInputSchema | undefined>();
  describeToolHits([], { inputSchemas: true });
  // @ts-expect-error: a misspelled option is refused
  describeToolHits([], { inputSchema: true });
  expectTypeOf(toolSearchDefinition().inputSchema).toEqualTypeOf<RcpInputSchema>();
  expectTypeOf(describeToolHits([]).text).toBeString();
});

test('the query caps are numbers a caller can show or cut to', () => {
  expectTypeOf(MAX_QUERY_LENGTH).toEqualTypeOf<number>();
  expectTypeOf(MAX_QUERY_WORDS).toEqualTypeOf<number>();
});
