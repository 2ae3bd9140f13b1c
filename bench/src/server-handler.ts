/**
 * Scenario 7: the server side. One tool call answered in process through three `fetch(Request)`
 * handlers doing the same work — bearer check, the path's learnerId bound to the token's learner,
 * a query value checked against its enum, a JSON answer:
 * - hand-written: a URL split, `if`s and `Response.json` (the limit);
 * - Hono alone: a Hono route with the same checks written by hand;
 * - rcp-server: the tool declared once; its bearerAuth, compiled argument check and bound param
 *   do the checks (and the same server mounted in Hono with `rcpHono`).
 * Each call builds its `Request` and reads the response body, for every contender alike.
 */
import { Hono } from 'hono';
import { bearerAuth, createRcpServer, defineTool, tokensEqual } from 'rcp-server';
import { rcpHono } from 'rcp-server/hono';
import { median, rotate } from './lib/stats.js';

const TOKEN = 'bench-token-0123456789abcdef';
const LEVELS = ['summary', 'full'];

export interface ServerHandlerRow {
  id: string;
  label: string;
  /** Median over rounds of microseconds per call. */
  us: number;
  /** Median over rounds of (this ÷ hand-written in the same round). */
  ratioToHand: number;
  /** Median over rounds of (this ÷ Hono alone in the same round). */
  ratioToHono: number;
}

export interface ServerHandlerResult {
  calls: number;
  rounds: number;
  sameOutput: boolean;
  rows: ServerHandlerRow[];
}

type Handler = (request: Request) => Promise<Response> | Response;

function profile(learnerId: string, detail: string | null) {
  return { id: learnerId, name: 'Ada Lovelace', detail: detail ?? 'summary' };
}

const problem = (status: number) => Response.json({ status }, { status });

const handWritten: Handler = (request) => {
  const header = request.headers.get('authorization');
  if (header === null || !header.startsWith('Bearer ') || !tokensEqual(header.slice(7), TOKEN)) return problem(401);
  const url = new URL(request.url);
  const segments = url.pathname.split('/');
  if (request.method !== 'GET' || segments.length !== 5 || segments[1] !== 'api' || segments[2] !== 'learners' || segments[4] !== 'profile') {
    return problem(404);
  }
  const learnerId = decodeURIComponent(segments[3]!);
  const detail = url.searchParams.get('detail');
  if (detail !== null && !LEVELS.includes(detail)) return problem(400);
  if (learnerId !== 'learner-42') return problem(403);
  return Response.json(profile(learnerId, detail));
};

function honoAlone(): Handler {
  const app = new Hono();
  app.get('/api/learners/:learnerId/profile', (context) => {
    const header = context.req.header('authorization');
    if (header === undefined || !header.startsWith('Bearer ') || !tokensEqual(header.slice(7), TOKEN)) return problem(401);
    const learnerId = context.req.param('learnerId');
    const detail = context.req.query('detail') ?? null;
    if (detail !== null && !LEVELS.includes(detail)) return problem(400);
    if (learnerId !== 'learner-42') return problem(403);
    return context.json(profile(learnerId, detail));
  });
  return (request) => app.fetch(request);
}

function rcpServer() {
  return createRcpServer<{ learnerId: string }>({
    auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
    verify: bearerAuth([{ token: TOKEN, principal: { learnerId: 'learner-42' } }]),
    describedBy: false,
    tools: [
      defineTool<{ learnerId: string }>({
        name: 'get_learner_profile',
        description: "Fetches a learner's profile.",
        method: 'GET',
        path: '/api/learners/{{learnerId}}/profile',
        params: [
          { name: 'learnerId', bound: (principal) => principal.learnerId },
          { name: 'detail', enum: LEVELS },
        ],
        queryParams: { detail: '{{detail}}' },
        handler: ({ values }) => profile(values.learnerId as string, (values.detail as string | undefined) ?? null),
      }),
    ],
  });
}

export async function runServerHandler(options: { rounds: number; calls: number }): Promise<ServerHandlerResult> {
  const server = rcpServer();
  const inHono = new Hono();
  inHono.use(rcpHono(server));
  const contenders: { id: string; label: string; handle: Handler }[] = [
    { id: 'hand', label: 'hand-written fetch handler (the limit)', handle: handWritten },
    { id: 'hono', label: 'Hono alone (same checks written in the route)', handle: honoAlone() },
    { id: 'rcp-server', label: 'rcp-server fetch (declared tool: bearerAuth, argument check, bound param)', handle: (request) => server.fetch(request) },
    { id: 'rcp-server-hono', label: 'rcp-server mounted in Hono (rcpHono)', handle: (request) => inHono.fetch(request) },
  ];
  const requestFor = (i: number) =>
    new Request(`http://127.0.0.1/api/learners/learner-42/profile?detail=${LEVELS[i & 1]}`, { headers: { authorization: `Bearer ${TOKEN}` } });

  const outputs = await Promise.all(
    contenders.map(async (c) => {
      const response = await c.handle(requestFor(1));
      return `${response.status} ${await response.text()}`;
    }),
  );
  const sameOutput = outputs.every((output) => output === outputs[0]) && outputs[0]!.startsWith('200 ');

  const run = async (handle: Handler, calls: number) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await (await handle(requestFor(i))).text();
    return Number(process.hrtime.bigint() - start) / calls / 1000;
  };
  for (const c of contenders) await run(c.handle, Math.max(200, options.calls >> 2));
  const perRound = new Map(contenders.map((c) => [c.id, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    for (const c of rotate(contenders, round)) perRound.get(c.id)!.push(await run(c.handle, options.calls));
  }
  const hand = perRound.get('hand')!;
  const hono = perRound.get('hono')!;
  return {
    calls: options.calls,
    rounds: options.rounds,
    sameOutput,
    rows: contenders.map((c) => {
      const rounds = perRound.get(c.id)!;
      return {
        id: c.id,
        label: c.label,
        us: median(rounds),
        ratioToHand: median(rounds.map((value, k) => value / hand[k]!)),
        ratioToHono: median(rounds.map((value, k) => value / hono[k]!)),
      };
    }),
  };
}
