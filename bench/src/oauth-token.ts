/**
 * Scenario 7: what an OAuth 2 token costs per call once it is cached. Two rcp-client clients
 * call the same bearer-auth tool on a loopback server in this process: one with a static
 * credential (`credentials: () => token`), one with rcp-oauth's `clientCredentials` (the token
 * asked for once from a loopback token endpoint, then served from the provider's cache).
 * Sequential calls, interleaved per round with the order rotated; the ratio is per round.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRcpClient, type RcpClient, type RcpClientTool } from 'rcp-client';
import { clientCredentials } from 'rcp-oauth';
import { median, rotate } from './lib/stats.js';

export interface OAuthTokenResult {
  calls: number;
  rounds: number;
  /** Median over rounds of microseconds per call. */
  staticUs: number;
  oauthUs: number;
  /** Median over rounds of (cached-token call time ÷ static-credential call time in the same round). */
  ratio: number;
  /** Token requests the token endpoint received during the whole scenario (1 when the cache works). */
  tokenRequests: number;
}

const TOKEN = 'bench-access-token-0123456789abcdef';
const STATIC = 'bench-static-credential-0123456789';

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function runOAuthToken(options: { rounds: number; calls: number }): Promise<OAuthTokenResult> {
  let tokenRequests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/token') {
        tokenRequests += 1;
        json(res, 200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 });
      } else if (req.url === '/manifest') {
        json(res, 200, {
          rcpVersion: '0.1',
          auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' },
          tools: [{ name: 'get_note', description: 'Gets a note.', method: 'GET', url: '/notes/{{noteId}}', params: [{ name: 'noteId', required: true }] }],
        });
      } else if (req.headers.authorization === `Bearer ${TOKEN}` || req.headers.authorization === `Bearer ${STATIC}`) {
        json(res, 200, { id: req.url?.slice(7), title: 'Groceries' });
      } else {
        json(res, 401, { error: 'invalid_token' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const contenders: { id: 'static' | 'oauth'; client: RcpClient; tool?: RcpClientTool }[] = [
      { id: 'static', client: createRcpClient({ credentials: () => STATIC }) },
      {
        id: 'oauth',
        client: createRcpClient(clientCredentials({ tokenEndpoint: `${origin}/token`, clientId: 'bench', clientSecret: 'bench-secret' })),
      },
    ];
    for (const contender of contenders) contender.tool = (await contender.client.discover(`${origin}/manifest`)).tool('get_note');
    const run = async (contender: (typeof contenders)[number], calls: number): Promise<number> => {
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        const { status } = await contender.client.execute(contender.tool!, { noteId: `n-${i % 16}` });
        if (status !== 200) throw new Error(`${contender.id}: HTTP ${status}`);
      }
      return ((performance.now() - start) * 1000) / calls;
    };
    for (const contender of contenders) await run(contender, Math.max(50, options.calls >> 2));
    const perRound = { static: [] as number[], oauth: [] as number[] };
    for (let round = 0; round < options.rounds; round++) {
      for (const contender of rotate(contenders, round)) perRound[contender.id].push(await run(contender, options.calls));
    }
    return {
      calls: options.calls,
      rounds: options.rounds,
      staticUs: median(perRound.static),
      oauthUs: median(perRound.oauth),
      ratio: median(perRound.oauth.map((value, k) => value / perRound.static[k]!)),
      tokenRequests,
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
