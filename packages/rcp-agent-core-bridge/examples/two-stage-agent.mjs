import { createRcpClient } from 'rcp-client';
import { createRcpRegistry, toModelResult } from 'rcp-agent-core-bridge';
import { startLearnServer } from './learn-server.mjs';

const server = await startLearnServer();

const client = createRcpClient({
  resolvers: { learnerId: (ctx) => ctx.learnerId }, // filled by the client, never by the model
  credentials: () => 'demo-token',
});
const discovery = await client.discover(server.manifestUrl);

// Two stages: `browse` may only search; `act` may use everything.
const { transports } = createRcpRegistry({
  client,
  discoveries: [discovery],
  stages: { browse: ['search_courses'], act: () => true },
});

for (const [stage, transport] of Object.entries(transports)) {
  console.log(`${stage} lists:`, transport.catalog().map((tool) => tool.name).join(', '));
}
console.log('enroll parameters:', JSON.stringify(transports.act.catalog()[1].parameters));

// What a model emits in each stage (a real agent gets these calls from its model).
const turns = [
  ['browse', { name: 'search_courses', arguments: '{"query":"algebra"}' }, { learnerId: 'u-42' }],
  ['browse', { name: 'enroll', arguments: '{"courseId":"alg-1"}' }, { learnerId: 'u-42' }],
  ['act', { name: 'enroll', arguments: '{"courseId":"alg-1","learnerId":"u-7"}' }, { learnerId: 'u-42' }],
  ['act', { name: 'enroll', arguments: '{"courseId":"alg-1"}' }, { learnerId: 'u-42' }],
  ['act', { name: 'enroll', arguments: '{"courseId":"alg-2"}' }, {}], // nobody signed in
];

for (const [stage, call, ctx] of turns) {
  let outcome;
  try {
    const plan = transports[stage].select(call); // synchronous: validated, stage-checked, nothing sent yet
    outcome = await plan.execute(ctx).then(toModelResult, (error) => toModelResult(error, plan));
  } catch (error) {
    outcome = toModelResult(error); // refused before any plan existed
  }
  console.log(`\n[${stage}] ${call.name} ${call.arguments}\n→ ${JSON.stringify(outcome)}`);
}

console.log('\nrequests the server received:', server.requests);
await server.close();
