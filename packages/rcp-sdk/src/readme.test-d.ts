// The root README's and the rcp-client README's TypeScript snippets, as written: nothing here
// runs, the type checker reads it (pnpm typecheck).
import { expectTypeOf, test } from 'vitest';
import { createRcpClient, describeManifest, isRcpError, toModelResult, type ModelResult } from 'rcp-sdk/client';

declare const session: { userId: string };

test('root README: discover, describe, call, toModelResult', async () => {
  const client = createRcpClient({
    resolvers: { learnerId: (ctx) => ctx.currentUserId }, // filled by you, hidden from the model
    credentials: () => process.env.LEARN_TOKEN, // sent only to trusted origins
  });
  const discovery = await client.discover('https://learn.example.com/rcp/manifest');
  console.log(describeManifest(discovery.manifest, discovery.tools));
  const outcome = await client.call(
    discovery,
    { name: 'search_courses', arguments: '{"query":"algebra"}' },
    {
      currentUserId: 'learner-42',
    },
  );
  const forModel = toModelResult(outcome);
  expectTypeOf(forModel).toEqualTypeOf<ModelResult>();
});

test('rcp-client README: the Errors section', async () => {
  const client = createRcpClient<{ currentUserId?: string }>({
    resolvers: { learnerId: (ctx, { tool, param }) => (tool.name && param ? ctx.currentUserId : undefined) },
  });
  const discovery = await client.discover('http://127.0.0.1:4010/rcp/manifest');
  try {
    await client.execute(discovery.tool('search_courses'), { query: 'algebra' }, { currentUserId: session.userId });
  } catch (error) {
    if (isRcpError(error, 'RCP_INVALID_ARGUMENTS')) expectTypeOf(error.issues[0]!.message).toBeString();
    if (isRcpError(error, 'RCP_HTTP_ERROR')) expectTypeOf(error.bodyExcerpt).toBeString();
    if (isRcpError(error, 'RCP_UNRESOLVED')) expectTypeOf(error.param).toBeString();
  }
});
