import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RcpError } from 'rcp-errors';
import type { AnswerWriter, WrittenAnswer } from './answer';
import { writeChatCompletion } from './chat-completions';
import { writeMessage } from './messages';
import { readModelRequest } from './read-request';
import { writeResponse } from './responses';
import { checkStep, isRawAnswer } from './script';
import type { ModelApi, ModelFake, ModelFakeOptions, ModelRequest, ModelScriptStep } from './types';

const WRITERS: Record<ModelApi, AnswerWriter> = {
  'chat.completions': writeChatCompletion,
  responses: writeResponse,
  messages: writeMessage,
};

/** The API a `POST` path is, with or without the `/v1` prefix. */
function apiOf(path: string): ModelApi | undefined {
  switch (path.replace(/^\/v1(?=\/)/, '')) {
    case '/chat/completions':
      return 'chat.completions';
    case '/responses':
      return 'responses';
    case '/messages':
      return 'messages';
    default:
      return undefined;
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A 400 in the error shape of the API (what its SDK throws as a bad-request error, never retried). */
function sendError(res: ServerResponse, api: ModelApi | undefined, message: string): void {
  sendJson(
    res,
    400,
    api === 'messages'
      ? { type: 'error', error: { type: 'invalid_request_error', message } }
      : { error: { message, type: 'invalid_request_error', param: null, code: null } },
  );
}

function sendAnswer(res: ServerResponse, answer: WrittenAnswer): void {
  if ('json' in answer) {
    sendJson(res, 200, answer.json);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of answer.events) {
    res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function checkOptions(options: ModelFakeOptions): void {
  if (typeof options !== 'object' || options === null) throw new RcpError('RCP_INVALID_OPTIONS', 'startModelFake: options must be an object');
  const { port, turns } = options;
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535)) {
    throw new RcpError('RCP_INVALID_OPTIONS', 'startModelFake: option "port" must be an integer from 0 to 65535');
  }
  if (turns !== undefined && !Array.isArray(turns)) throw new RcpError('RCP_INVALID_OPTIONS', 'startModelFake: option "turns" must be a list');
  turns?.forEach((step, index) => checkStep(step, `startModelFake: turns[${index}]`));
  if (options.fallback !== undefined) checkStep(options.fallback, 'startModelFake: option "fallback"');
}

/**
 * Starts a fake of the OpenAI Chat Completions and Responses APIs and the Anthropic Messages API on 127.0.0.1 (never
 * another address), for tests and local development: each `POST` to `/v1/chat/completions`, `/v1/responses` or
 * `/v1/messages` takes the next scripted answer (then the `fallback`, if any) and writes it in that API's shape — streamed as server-sent events
 * when the request says `stream: true`. The real provider SDK is the client; every request is kept in `requests`.
 *
 * @throws RcpError `RCP_INVALID_OPTIONS` for an answer that is not a turn, a raw answer or a function, or a bad port;
 * nothing is started then.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { startModelFake } from 'rcp-model-fake';
 *
 * const fake = await startModelFake({ turns: [{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }] });
 * const openai = new OpenAI({ apiKey: 'test', baseURL: fake.baseURL });
 * const completion = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'Weather?' }] });
 * console.log(completion.choices[0]?.message.tool_calls?.[0]); // { id: 'call_1', type: 'function', function: { name: 'get_weather', … } }
 * await fake.close();
 * ```
 */
export async function startModelFake(options: ModelFakeOptions = {}): Promise<ModelFake> {
  checkOptions(options);
  const queue: ModelScriptStep[] = [...(options.turns ?? [])];
  const requests: ModelRequest[] = [];
  const sockets = new Set<Socket>();
  const counters = new Map<string, number>();
  const nextId = (prefix: string) => {
    const next = (counters.get(prefix) ?? 0) + 1;
    counters.set(prefix, next);
    return `${prefix}${next}`;
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0]!;
    const api = req.method === 'POST' ? apiOf(path) : undefined;
    if (api === undefined) {
      sendJson(res, 404, { error: { message: `rcp-model-fake: no ${req.method} ${path} here`, type: 'not_found' } });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      sendError(res, api, 'rcp-model-fake: the request body is not a JSON object');
      return;
    }
    const request = readModelRequest(api, path, { ...req.headers }, body as Record<string, unknown>);
    requests.push(request);
    const step = queue.shift() ?? options.fallback;
    if (step === undefined) {
      sendError(res, api, `rcp-model-fake: no scripted answer left for request ${requests.length} (POST ${path})`);
      return;
    }
    try {
      const answer = typeof step === 'function' ? step(request) : step;
      checkStep(answer, `rcp-model-fake: the answer to request ${requests.length}`);
      if (typeof answer === 'function') throw new Error('an answer function must return a turn or a raw answer');
      if (isRawAnswer(answer)) sendJson(res, answer.status ?? 200, answer.body);
      else sendAnswer(res, WRITERS[api](answer, request, nextId));
    } catch (error) {
      sendError(res, api, error instanceof Error ? error.message : String(error));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseURL: `${origin}/v1`,
    requests,
    get pending() {
      return queue.length;
    },
    script(...steps) {
      steps.forEach((step, index) => checkStep(step, `script: step ${index}`));
      queue.push(...steps);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
