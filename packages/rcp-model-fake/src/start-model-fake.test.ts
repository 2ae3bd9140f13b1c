import Anthropic from '@anthropic-ai/sdk';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { isRcpError } from 'rcp-errors';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelFake } from './index';
import type { ModelFake } from './types';

let fake: ModelFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};
const longArguments = { city: 'Oslo', note: 'long enough to be cut into several stream pieces' };

describe('OpenAI Chat Completions, through the openai SDK', () => {
  it('answers a scripted tool call, then text, and reads the tool result the SDK sent back', async () => {
    fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny in Oslo.' }] });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    const first = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool] });
    const message = first.choices[0]!.message;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(message.tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    const second = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'Weather?' }, message, { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"clear"}' }],
    });
    expect(second.choices[0]!.message.content).toBe('Sunny in Oslo.');
    expect(fake.requests.map(({ api, path, stream, toolNames }) => ({ api, path, stream, toolNames }))).toEqual([
      { api: 'chat.completions', path: '/v1/chat/completions', stream: false, toolNames: ['get_weather'] },
      { api: 'chat.completions', path: '/v1/chat/completions', stream: false, toolNames: [] },
    ]);
    expect(fake.requests[1]!.toolResults).toEqual([{ callId: 'call_1', output: '{"sky":"clear"}', text: '{"sky":"clear"}', isError: false }]);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer test');
    expect(fake.pending).toBe(0);
  });

  it('streams text and two tool calls as chunks the SDK joins back (SSE, with the usage chunk when asked)', async () => {
    fake = await startModelFake({
      turns: [
        {
          text: 'Let me look that up.',
          toolCalls: [
            { name: 'get_weather', arguments: longArguments, id: 'call_a' },
            { name: 'get_time', arguments: '{"zone":"CET"}' },
          ],
        },
      ],
    });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    const stream = openai.chat.completions.stream({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream_options: { include_usage: true } });
    let chunks = 0;
    for await (const _chunk of stream) chunks++;
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Let me look that up.');
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: JSON.stringify(longArguments) } },
      { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } },
    ]);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(final.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    expect(chunks).toBeGreaterThan(10);
    expect(fake.requests[0]!.stream).toBe(true);
  });

  it('a request with no scripted answer left is a 400 the SDK throws, sent once (never retried)', async () => {
    fake = await startModelFake();
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL });
    await expect(openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('no scripted answer left for request 1'),
    });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('OpenAI Responses, through the openai SDK', () => {
  it('answers function_call items, and reads the function_call_output the SDK sent back', async () => {
    fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }] });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    const response = await openai.responses.create({
      model: 'gpt-test',
      input: 'Weather?',
      tools: [{ type: 'function', name: 'get_weather', parameters: {}, strict: false }],
    });
    expect(response.output).toEqual([
      { id: 'fc_1', type: 'function_call', status: 'completed', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    fake.script((request) => ({ text: `results: ${request.toolResults.map((result) => result.text).join(', ')}` }));
    const next = await openai.responses.create({
      model: 'gpt-test',
      previous_response_id: response.id,
      input: [{ type: 'function_call_output', call_id: 'call_1', output: '{"sky":"clear"}' }],
    });
    expect(next.output_text).toBe('results: {"sky":"clear"}');
    expect(fake.requests.map((request) => [request.api, request.toolNames])).toEqual([
      ['responses', ['get_weather']],
      ['responses', []],
    ]);
  });

  it('streams text and a function call as the Responses events; the SDK rebuilds the final response', async () => {
    fake = await startModelFake({
      turns: [{ text: 'Checking the weather now.', toolCalls: [{ name: 'get_weather', arguments: longArguments, id: 'call_w' }] }],
    });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    const stream = openai.responses.stream({ model: 'gpt-test', input: 'hi' });
    const types = new Set<string>();
    let text = '';
    for await (const event of stream) {
      types.add(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const final = await stream.finalResponse();
    expect(text).toBe('Checking the weather now.');
    expect(final.output_text).toBe('Checking the weather now.');
    expect(final.output[1]).toMatchObject({ type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: JSON.stringify(longArguments) });
    expect([...types]).toEqual(
      expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.function_call_arguments.delta', 'response.completed']),
    );
  });
});

describe('Anthropic Messages, through @anthropic-ai/sdk', () => {
  it('answers tool_use blocks, and reads the tool_result the SDK sent back', async () => {
    fake = await startModelFake({ turns: [{ text: 'Looking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }, { text: 'Sunny.' }] });
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: fake.origin, maxRetries: 0 });
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];
    const first = await anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools });
    expect(first.stop_reason).toBe('tool_use');
    expect(first.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    const second = await anthropic.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'clear' }], is_error: true }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Sunny.' }]);
    expect(fake.requests.map(({ api, path }) => `${api} ${path}`)).toEqual(['messages /v1/messages', 'messages /v1/messages']);
    expect(fake.requests[1]!.toolResults).toEqual([{ callId: 'toolu_1', output: [{ type: 'text', text: 'clear' }], text: 'clear', isError: true }]);
    expect(fake.requests[0]!.body).toMatchObject({ model: 'claude-test', max_tokens: 100 });
  });

  it('streams text and tool_use as the Messages events; the SDK joins the input JSON', async () => {
    fake = await startModelFake({ turns: [{ text: 'One moment, please.', toolCalls: [{ name: 'get_weather', arguments: longArguments }] }] });
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: fake.origin, maxRetries: 0 });
    const stream = anthropic.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe('One moment, please.');
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[1]).toEqual({ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: longArguments });
  });

  it('a Messages answer cannot carry arguments that are not a JSON object unless streamed: a 400 that says so', async () => {
    fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'get_weather', arguments: 'not json' }] }] });
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: fake.origin, maxRetries: 0 });
    await expect(anthropic.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('are not a JSON object'),
    });
  });
});

describe('the AI SDK, through @ai-sdk/openai', () => {
  const weather = tool({
    description: 'Weather of a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }),
    execute: async ({ city }) => ({ city, sky: 'clear' }),
  });

  it('generateText over Responses: a tool call, its execution, the final text', async () => {
    fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }, { text: 'Clear skies in Oslo.' }] });
    const provider = createOpenAI({ apiKey: 'test', baseURL: fake.baseURL });
    const result = await generateText({ model: provider('gpt-test'), prompt: 'Weather?', tools: { weather }, stopWhen: stepCountIs(3) });
    expect(result.text).toBe('Clear skies in Oslo.');
    expect(fake.requests[1]!.toolResults.map((seen) => JSON.parse(seen.text))).toEqual([{ city: 'Oslo', sky: 'clear' }]);
  });

  it('streamText over Chat Completions: the streamed tool call and text', async () => {
    fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] }, { text: 'Clear skies in Oslo.' }] });
    const provider = createOpenAI({ apiKey: 'test', baseURL: fake.baseURL });
    const result = streamText({ model: provider.chat('gpt-test'), prompt: 'Weather?', tools: { weather }, stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('Clear skies in Oslo.');
    expect(fake.requests.map((request) => [request.api, request.stream])).toEqual([
      ['chat.completions', true],
      ['chat.completions', true],
    ]);
    expect(fake.requests[1]!.toolResults.map((seen) => JSON.parse(seen.text))).toEqual([{ city: 'Oslo', sky: 'clear' }]);
  });
});

describe('bad scripts', () => {
  it.each([
    [{ turns: [{}] }, 'turns[0]: a turn needs "text", "toolCalls" or both'],
    [{ turns: [{ txt: 'hi' }] }, 'turns[0]: "txt" is not a key of a turn'],
    [{ turns: [{ toolCalls: [] }] }, '"toolCalls" must be a non-empty list'],
    [{ turns: [{ toolCalls: [{ name: '' }] }] }, 'turns[0], tool call 0: "name" must be a non-empty string'],
    [{ turns: [{ toolCalls: [{ name: 'a', arguments: 3 }] }] }, '"arguments" must be an object or a string'],
    [{ turns: [{ status: 99, body: {} }] }, '"status" must be an HTTP status'],
    [{ port: -1 }, 'option "port"'],
    [{ turns: 'hi' }, 'option "turns" must be a list'],
    [{ fallback: { text: 1 } }, 'option "fallback": "text" must be a string'],
  ])('%j is RCP_INVALID_OPTIONS, nothing started', async (options, message) => {
    const error = await startModelFake(options as never).catch((caught: unknown) => caught);
    expect(isRcpError(error, 'RCP_INVALID_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain(message);
  });

  it('a function answer that returns no turn is a 400 naming the request', async () => {
    fake = await startModelFake({ turns: [() => ({}) as never] });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    await expect(openai.responses.create({ model: 'gpt-test', input: 'hi' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('the answer to request 1: a turn needs'),
    });
  });

  it('a raw answer is sent as written: a 429 the SDK sees as a rate limit', async () => {
    fake = await startModelFake({ turns: [{ status: 429, body: { error: { message: 'Slow down', type: 'rate_limit_error' } } }] });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    await expect(openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(
      OpenAI.RateLimitError,
    );
  });

  it('the fallback answers every request past the scripted ones: a model paging until the tool says it is done', async () => {
    fake = await startModelFake({
      turns: [{ text: 'first' }],
      fallback: (request) => (request.toolResults.length < 2 ? { toolCalls: [{ name: 'next_page' }] } : { text: 'Done.' }),
    });
    const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL, maxRetries: 0 });
    const ask = async (results: number) => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'all pages' }];
      for (let index = 0; index < results; index++) messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: 'page' });
      return (await openai.chat.completions.create({ model: 'gpt-test', messages })).choices[0]!.message;
    };
    expect((await ask(0)).content).toBe('first');
    expect((await ask(1)).tool_calls?.[0]).toMatchObject({ function: { name: 'next_page', arguments: '{}' } });
    expect((await ask(2)).content).toBe('Done.');
    expect((await ask(2)).content).toBe('Done.');
    expect(fake.pending).toBe(0);
  });

  it('anything but a model POST is a 404', async () => {
    fake = await startModelFake();
    const answer = await fetch(`${fake.baseURL}/models`);
    expect(answer.status).toBe(404);
    expect(fake.requests).toEqual([]);
  });
});
