/**
 * Scenario 11: what the stateless approval guarantee costs per call (issue 39). The same write —
 * a POST to a tool that declares RCP 0.4 idempotency, on a loopback server in this process — made
 * three ways, sequentially, interleaved per round with the order rotated:
 *
 * - no approval (the baseline: the key is random per call);
 * - approved on the in-memory ledger: `review(…, { key })` keeps the review, then the call resumes
 *   it (`{ approvalKey }`): verified, claimed once, the key derived from the approval;
 * - the same on the Redis ledger (`rcp-redis`), a real `redis-server` the bench starts on
 *   loopback — skipped, with the reason printed, when `redis-server` is not on the PATH.
 *
 * Reported, never asserted.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { createMemoryApprovalLedger, createRcpClient, type RcpApprovalLedger, type RcpClient, type RcpClientTool } from 'rcp-client';
import { createRedisApprovalLedger } from 'rcp-redis';
import { createClient } from 'redis';
import { median, rotate } from './lib/stats.js';

export interface ApprovalLedgerResult {
  calls: number;
  rounds: number;
  /** Median over rounds of microseconds per call. */
  plainUs: number;
  memoryUs: number;
  redisUs: number | undefined;
  /** Medians over rounds of the per-round ratios. */
  memoryPerPlain: number;
  redisPerMemory: number | undefined;
  redisPerPlain: number | undefined;
  /** Why the Redis row is missing, when it is. */
  redisSkipped?: string;
  /** Writes the API received (every call is one). */
  writes: number;
}

const SECRET = 'the bench approval secret, 32 bytes or more';

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A free loopback port (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something answers PING on the port. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(chunk.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

/** A real redis-server on loopback (no persistence), or the reason there is none. */
async function startRedis(): Promise<{ url: string; stop: () => void } | { skipped: string }> {
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  } catch (error) {
    return { skipped: `redis-server could not be started (${(error as Error).message})` };
  }
  const failed = new Promise<string>((resolve) => {
    child.once('error', (error) =>
      resolve(`redis-server is not available (${(error as NodeJS.ErrnoException).code ?? error.message}); install it to get this row`),
    );
    child.once('exit', (code) => resolve(`redis-server exited (${code})`));
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await Promise.race([pings(port).then((ok) => (ok ? 'up' : 'down')), failed]);
    if (answer === 'up') return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
    if (answer !== 'down') return { skipped: answer };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  return { skipped: 'redis-server did not answer within 5 s' };
}

type ContenderId = 'plain' | 'memory' | 'redis';
interface Contender {
  readonly id: ContenderId;
  readonly client: RcpClient;
  tool?: RcpClientTool;
  readonly approved: boolean;
}

export async function runApprovalLedger(options: { rounds: number; calls: number }): Promise<ApprovalLedgerResult> {
  let writes = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/manifest') {
        json(res, 200, {
          rcpVersion: '0.4',
          tools: [{ name: 'pay', description: 'Pays.', method: 'POST', url: '/payments', idempotency: { header: 'Idempotency-Key' } }],
        });
      } else if (req.method === 'POST' && typeof req.headers['idempotency-key'] === 'string') {
        writes += 1;
        json(res, 201, { id: 'p-1' });
      } else json(res, 400, { error: 'no key' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redis = await startRedis();
  const redisClient = 'url' in redis ? await createClient({ url: redis.url }).connect() : undefined;
  try {
    const approving = (approvalLedger: RcpApprovalLedger) => createRcpClient({ approval: 'writes', approvalSecret: SECRET, approvalLedger });
    const contenders: Contender[] = [
      { id: 'plain', client: createRcpClient({ approvalSecret: SECRET }), approved: false },
      { id: 'memory', client: approving(createMemoryApprovalLedger()), approved: true },
    ];
    if (redisClient !== undefined) {
      contenders.push({ id: 'redis', client: approving(createRedisApprovalLedger({ client: redisClient, prefix: 'bench:approval:' })), approved: true });
    }
    for (const contender of contenders) contender.tool = (await contender.client.discover(`${origin}/manifest`)).tool('pay');
    let sequence = 0;
    const run = async (contender: Contender, calls: number): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        let options = {};
        if (contender.approved) {
          const key = `call_${contender.id}_${sequence++}`;
          await contender.client.review(contender.tool!, {}, undefined, { key });
          options = { approvalKey: key };
        }
        const { status } = await contender.client.execute(contender.tool!, {}, undefined, options);
        if (status !== 201) throw new Error(`${contender.id}: HTTP ${status}`);
      }
      return ((performance.now() - start) * 1000) / calls;
    };
    for (const contender of contenders) await run(contender, Math.max(50, options.calls >> 2));
    const perRound: Record<ContenderId, number[]> = { plain: [], memory: [], redis: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const contender of rotate(contenders, round)) perRound[contender.id].push(await run(contender, options.calls));
    }
    const ratios = (a: ContenderId, b: ContenderId) => median(perRound[a].map((value, k) => value / perRound[b][k]!));
    const hasRedis = perRound.redis.length > 0;
    return {
      calls: options.calls,
      rounds: options.rounds,
      plainUs: median(perRound.plain),
      memoryUs: median(perRound.memory),
      redisUs: hasRedis ? median(perRound.redis) : undefined,
      memoryPerPlain: ratios('memory', 'plain'),
      redisPerMemory: hasRedis ? ratios('redis', 'memory') : undefined,
      redisPerPlain: hasRedis ? ratios('redis', 'plain') : undefined,
      ...('skipped' in redis && { redisSkipped: redis.skipped }),
      writes,
    };
  } finally {
    await redisClient?.close();
    if ('stop' in redis) redis.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
