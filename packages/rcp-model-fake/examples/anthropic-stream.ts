import Anthropic from '@anthropic-ai/sdk';
import { startModelFake } from 'rcp-model-fake';

const fake = await startModelFake({
  turns: [{ text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }],
});
const anthropic = new Anthropic({ apiKey: 'test', baseURL: fake.origin });
const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'Weather in Oslo?' }] });
const message = await stream.finalMessage();
console.log(message.stop_reason, message.content);
console.log(fake.requests[0]?.stream);
await fake.close();
