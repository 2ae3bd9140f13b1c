/**
 * The call-overhead contenders. Every contender performs the same logical call `i`:
 * even i → get_learner_profile for learner `learnerIds[(i >> 1) % n]`, odd i → search_courses for
 * `queries[(i >> 1) % n]`, against the same upstream, and returns the parsed JSON.
 */
import { setMaxListeners } from 'node:events';
import ky from 'ky';
import { Agent, request } from 'undici';
import { learnerIds, queries } from '../lib/seed.js';
import type { ModelFacingTool } from '../model-reads.js';

/** One way of making the call. */
export interface Contender {
  id: string;
  label: string;
  /** What this contender does per call (printed in the README and the JSON). */
  does: string;
  setup(): Promise<void>;
  call(i: number): Promise<unknown>;
  /** Sanity check after setup: throws when the contender does not return the expected data. */
  check(): Promise<void>;
  /** Run around every measured segment (and the warm-up) of this contender. */
  before?(): void;
  after?(): void;
  close?(): Promise<void>;
  /** The tool listing this stack hands to the model (name, description, input schema). */
  listing?(): Promise<ModelFacingTool[]>;
}

/** The arguments of logical call `i`. */
export function callArgs(i: number): { tool: 'get_learner_profile'; learnerId: string } | { tool: 'search_courses'; query: string } {
  const k = i >> 1;
  return i % 2 === 0
    ? { tool: 'get_learner_profile', learnerId: learnerIds[k % learnerIds.length]! }
    : { tool: 'search_courses', query: queries[k % queries.length]! };
}

function hand(origin: string, i: number): string {
  const args = callArgs(i);
  return args.tool === 'get_learner_profile'
    ? `${origin}/learners/${encodeURIComponent(args.learnerId)}/profile`
    : `${origin}/courses/search?q=${encodeURIComponent(args.query)}`;
}

function assertProfile(value: unknown, where: string): void {
  const v = value as { name?: unknown; progress?: unknown; data?: { name?: unknown } };
  const name = v?.name ?? v?.data?.name;
  if (name !== 'Ada Lovelace') throw new Error(`${where}: unexpected profile result ${JSON.stringify(value)?.slice(0, 200)}`);
}

function assertSearch(value: unknown, where: string): void {
  // The gateway answers the model-facing shape (`{ ok, data }`), the others the API's body.
  const v = value as { results?: unknown[]; data?: { results?: unknown[] } };
  const results = v?.results ?? v?.data?.results;
  if (!Array.isArray(results) || results.length !== 5) throw new Error(`${where}: unexpected search result ${JSON.stringify(value)?.slice(0, 200)}`);
}

async function checkBoth(contender: Contender): Promise<void> {
  assertProfile(await contender.call(0), `${contender.id} get_learner_profile`);
  assertSearch(await contender.call(1), `${contender.id} search_courses`);
}

/** Baseline: `fetch` with a hand-built URL and `response.json()` — the physical limit of this stack. */
export function rawFetch(origin: string): Contender {
  const contender: Contender = {
    id: 'fetch',
    label: 'raw fetch (baseline)',
    does: 'global fetch (undici), URL built by hand with encodeURIComponent, response.ok check, response.json()',
    async setup() {},
    async call(i) {
      const response = await fetch(hand(origin, i));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    check: () => checkBoth(contender),
  };
  return contender;
}

/** Raw fetch plus what a deadline costs: a fresh `AbortSignal.timeout` per call. */
export function rawFetchWithSignal(origin: string): Contender {
  const contender: Contender = {
    id: 'fetch-signal',
    label: 'raw fetch + AbortSignal.timeout',
    does: 'as raw fetch, with signal: AbortSignal.timeout(10 s) per call (the cost of a deadline)',
    async setup() {},
    async call(i) {
      const response = await fetch(hand(origin, i), { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    check: () => checkBoth(contender),
  };
  return contender;
}

/**
 * The new limit on Node: undici's own `request()` on a keep-alive `Agent` (the library Node's
 * fetch is built on, without the WHATWG Request/Response per call), URL built by hand,
 * `body.json()`.
 */
export function rawUndici(origin: string): Contender {
  const agent = new Agent();
  const contender: Contender = {
    id: 'undici',
    label: 'raw undici.request (limit)',
    does: 'undici 7 request(url, { dispatcher: keep-alive Agent }), URL built by hand, status check, body.json()',
    async setup() {},
    async call(i) {
      const response = await request(hand(origin, i), { dispatcher: agent });
      if (response.statusCode < 200 || response.statusCode > 299) throw new Error(`HTTP ${response.statusCode}`);
      return response.body.json();
    },
    check: () => checkBoth(contender),
    close: () => agent.close(),
  };
  return contender;
}

/** ky with its defaults (retry, timeout, hooks machinery), URL built by hand, `.json()`. */
export function kyContender(origin: string): Contender {
  const contender: Contender = {
    id: 'ky',
    label: 'ky',
    does: 'ky(url).json() with default options (retry 2, timeout 10 s), URL built by hand',
    async setup() {},
    call: (i) => ky(hand(origin, i)).json(),
    check: () => checkBoth(contender),
  };
  return contender;
}

interface RcpToolLike {
  name: string;
  description: string;
  inputSchema: unknown;
}
interface RcpClientLike {
  discover(url: string): Promise<{ tools: readonly RcpToolLike[] }>;
  execute(tool: RcpToolLike, args: Record<string, unknown>, ctx?: unknown): Promise<{ status: number; data: unknown }>;
}

/**
 * rcp-client `execute`: discovered once from the upstream's `/manifest`; `learnerId` is filled by a
 * resolver from the call context (hidden from the model), arguments validated, URL rendered,
 * response size-capped and mapped by `responseMappings`.
 */
export function rcpContender(origin: string, transport: 'default' | 'fetch' = 'default'): Contender {
  let client: RcpClientLike | undefined;
  let profileTool: RcpToolLike | undefined;
  let searchTool: RcpToolLike | undefined;
  let discovered: readonly RcpToolLike[] = [];
  const contexts = learnerIds.map((learnerId) => ({ learnerId }));
  const searchArgs = queries.map((query) => ({ query }));
  const noArgs = {};
  const viaFetch = transport === 'fetch';
  const contender: Contender = {
    id: viaFetch ? 'rcp-fetch' : 'rcp',
    label: viaFetch ? 'rcp-client execute, fetch transport' : 'rcp-client execute (Node default: undici transport)',
    does:
      'client.execute(tool, args, ctx): validate args, learnerId from a resolver, compiled render, ' +
      (viaFetch
        ? 'globalThis.fetch passed as `fetch` (what browsers and edge runtimes get)'
        : "undici dispatch() on the client's keep-alive agent with the connect-time address check") +
      ', one AbortSignal deadline, capped body read, JSON parse, responseMappings',
    async setup() {
      const { createRcpClient } = (await import('rcp-client')) as unknown as {
        createRcpClient(options: { resolvers: Record<string, (ctx: unknown) => unknown>; fetch?: typeof fetch }): RcpClientLike;
      };
      client = createRcpClient({
        resolvers: { learnerId: (ctx) => (ctx as { learnerId: string }).learnerId },
        ...(viaFetch && { fetch: globalThis.fetch }),
      });
      const discovery = await client.discover(`${origin}/manifest`);
      discovered = discovery.tools;
      profileTool = discovery.tools.find((t) => t.name === 'get_learner_profile');
      searchTool = discovery.tools.find((t) => t.name === 'search_courses');
      if (profileTool === undefined || searchTool === undefined) throw new Error('rcp: seed tools not discovered');
    },
    async call(i) {
      const k = i >> 1;
      const result =
        i % 2 === 0
          ? await client!.execute(profileTool!, noArgs, contexts[k % contexts.length])
          : await client!.execute(searchTool!, searchArgs[k % searchArgs.length]!);
      return result.data;
    },
    check: () => checkBoth(contender),
    listing: async () => discovered.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  };
  return contender;
}

interface UtcpClientLike {
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  getTools(): Promise<{ name: string; description: string; inputs: unknown }[]>;
  close(): Promise<void>;
}

let sharedUtcp: Promise<UtcpClientLike> | undefined;

/** One UtcpClient shared by both UTCP variants (the HTTP protocol plugin is a process-wide singleton). */
export function utcpClient(origin: string): Promise<UtcpClientLike> {
  sharedUtcp ??= (async () => {
    await import('@utcp/http'); // registers the http / streamable_http / sse protocols
    const { UtcpClient } = await import('@utcp/sdk');
    const client = (await UtcpClient.create(process.cwd(), {
      manual_call_templates: [{ name: 'learning', call_template_type: 'http', http_method: 'GET', url: `${origin}/utcp` }],
    } as never)) as unknown as UtcpClientLike;
    const tools = await client.getTools();
    if (tools.length !== 2) throw new Error(`utcp: expected 2 tools from the manual, got ${tools.length}`);
    return client;
  })();
  return sharedUtcp;
}

/**
 * UTCP TypeScript SDK: an HTTP manual (served at `/utcp`) for the same endpoints, `client.callTool`.
 * With `silenced`, `console.log` is a no-op while this contender runs (the SDK logs twice per call).
 */
export function utcpContender(origin: string, silenced: boolean): Contender {
  let client: UtcpClientLike | undefined;
  const realLog = console.log;
  const profileArgs = learnerIds.map((learnerId) => ({ learnerId }));
  const searchArgs = queries.map((q) => ({ q }));
  const contender: Contender = {
    id: silenced ? 'utcp-silenced' : 'utcp',
    label: silenced ? 'UTCP (console.log silenced)' : 'UTCP (as shipped)',
    does: silenced
      ? 'same as UTCP, with console.log replaced by a no-op during its segments'
      : 'UtcpClient.callTool("learning.<tool>", args): variable substitution, zod re-validation of the call template, axios request; logs 2 lines per call to stdout (here /dev/null)',
    async setup() {
      client = await utcpClient(origin);
    },
    call(i) {
      const k = i >> 1;
      return i % 2 === 0
        ? client!.callTool('learning.get_learner_profile', profileArgs[k % profileArgs.length]!)
        : client!.callTool('learning.search_courses', searchArgs[k % searchArgs.length]!);
    },
    check: () => checkBoth(contender),
    listing: async () => (await client!.getTools()).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputs })),
    before: silenced
      ? () => {
          console.log = () => {};
        }
      : undefined,
    after: silenced
      ? () => {
          console.log = realLog;
        }
      : undefined,
  };
  return contender;
}

interface McpClientLike {
  connect(transport: unknown): Promise<void>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content?: { type: string; text?: string }[]; isError?: boolean }>;
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: unknown }[] }>;
  close(): Promise<void>;
}

/**
 * MCP TypeScript SDK: `Client` over `StreamableHTTPClientTransport` to the MCP server process,
 * whose tool handler calls the upstream (the proxy hop). The result text is parsed back to JSON.
 */
export function mcpContender(
  mcpUrl: string,
  variant: Pick<Contender, 'id' | 'label' | 'does'> = {
    id: 'mcp',
    label: 'MCP streamable HTTP (stateless)',
    does: 'Client.callTool over StreamableHTTPClientTransport → MCP server process (fresh McpServer + transport per request, SSE response) → fetch to the upstream; result text JSON.parse',
  },
): Contender {
  let client: McpClientLike | undefined;
  const profileArgs = learnerIds.map((learnerId) => ({ learnerId }));
  const searchArgs = queries.map((query) => ({ query }));
  const contender: Contender = {
    ...variant,
    async setup() {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const mcp = new Client({ name: 'rcp-bench', version: '0.0.0' }) as unknown as McpClientLike;
      const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
      await mcp.connect(transport);
      // The transport passes ONE AbortSignal to every fetch; undici adds an abort listener per
      // request that is only dropped at GC, so under load Node prints MaxListenersExceededWarning.
      // Lift the limit on that one signal so stderr stays readable (no effect on the work done).
      const signal = (transport as unknown as { _abortController?: AbortController })._abortController?.signal;
      if (signal !== undefined) setMaxListeners(0, signal);
      client = mcp;
    },
    async call(i) {
      const k = i >> 1;
      const result =
        i % 2 === 0
          ? await client!.callTool({ name: 'get_learner_profile', arguments: profileArgs[k % profileArgs.length]! })
          : await client!.callTool({ name: 'search_courses', arguments: searchArgs[k % searchArgs.length]! });
      if (result.isError === true) throw new Error(`MCP tool error: ${result.content?.[0]?.text ?? ''}`);
      return JSON.parse(result.content?.[0]?.text ?? 'null');
    },
    check: () => checkBoth(contender),
    listing: async () => (await client!.listTools()).tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })),
    async close() {
      await client?.close();
    },
  };
  return contender;
}
