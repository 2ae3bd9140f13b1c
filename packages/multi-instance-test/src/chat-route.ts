// app/api/chat/route.ts: a stateless chat route (a Next.js route handler). Every request builds a
// fresh client and tool set; what must outlive a request sits in Redis, shared by every instance.
import { openai } from '@ai-sdk/openai';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { createAISDKTools } from 'rcp-ai-sdk';
import { createRcpClient } from 'rcp-client';
import { clientCredentials } from 'rcp-oauth';
import { createRedisApprovalLedger, createRedisTokenStore } from 'rcp-redis';
import { createClient } from 'redis';

const env = process.env;
const redis = await createClient({ url: env.REDIS_URL }).connect();
// Reviews of paused calls and used approvals: a call paused on one instance is approved on another, once.
const approvalLedger = createRedisApprovalLedger({ client: redis });
// One access token for every instance, fetched once and renewed once (encrypted with the store's secret).
const tokenStore = createRedisTokenStore({ client: redis, secret: env.TOKEN_STORE_SECRET! });

export async function POST(request: Request): Promise<Response> {
  const { messages } = (await request.json()) as { messages: ModelMessage[] };
  const client = createRcpClient({
    ...clientCredentials({ tokenEndpoint: env.TOKEN_ENDPOINT!, clientId: 'notes-agent', clientSecret: env.CLIENT_SECRET!, store: tokenStore }),
    approval: 'writes', // every call that changes data waits for a person
    approvalSecret: env.APPROVAL_SECRET!, // the same in every instance
    approvalLedger,
  });
  const rcp = createAISDKTools(client, await client.discover(env.NOTES_MANIFEST_URL!));
  const result = await generateText({ model: openai('gpt-5-mini'), tools: rcp.tools, messages, stopWhen: stepCountIs(5) });
  // What the person is shown for each paused call: the exact request, the credential [redacted].
  const reviews = [];
  for (const part of result.content) if (part.type === 'tool-approval-request') reviews.push(await rcp.review(part.toolCall.toolCallId));
  // The browser keeps the history: it sends it back with a tool-approval-response for each answer.
  return Response.json({ messages: result.response.messages, reviews });
}
